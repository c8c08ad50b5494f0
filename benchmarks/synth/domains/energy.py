"""Domain vocabulary: power grids and energy storage."""

__all__ = ["DOMAIN"]

DOMAIN = {
    "name": "energy",
    "tops": ["Grid Integration", "Energy Storage Systems", "Load Forecasting", "Substation Operations"],
    "subs": [
        "Battery Dispatch", "Frequency Response", "Peak Shaving", "Solar Forecasts", "Demand Response",
        "Inverter Settings", "Thermal Limits", "Outage Restoration", "Meter Data", "Voltage Regulation",
        "Charging Schedules", "Protection Relays", "Islanding", "Tariff Windows", "Asset Health", "Grid Codes",
    ],
    "subjects": [
        "the battery controller", "the dispatch planner", "each inverter", "the forecasting service",
        "the substation gateway", "the demand response engine", "the protection relay", "the metering head-end",
        "the thermal model", "the voltage regulator", "the charging scheduler", "the outage manager",
    ],
    "preds": [
        "follows the dispatch signal within a few seconds", "keeps the state of charge inside safe limits",
        "updates its forecast every fifteen minutes", "curtails solar output when feeders are overloaded",
        "reports measurements to the control room every two seconds", "trips the breaker before the cable overheats",
        "shifts flexible load into cheaper tariff windows", "reserves capacity for frequency response",
        "balances cell temperatures across the battery racks", "restores supply to priority customers first",
        "estimates the remaining life of each transformer", "holds voltage within the statutory band",
        "spreads vehicle charging over the night", "isolates a faulty feeder section automatically",
    ],
    "conds": [
        "grid frequency drops below its nominal value", "a cloud front passes over the solar farm", "demand peaks on a cold evening",
        "a transformer runs hot for several hours", "a feeder trips during a storm", "wholesale prices spike",
        "the battery approaches its lower charge limit", "a large industrial load starts up",
        "communication with the control room is lost", "many vehicles plug in at the same time",
    ],
    "metrics": [
        "frequency deviation", "round-trip efficiency", "forecast error", "peak demand", "cycle count",
        "restoration time", "voltage unbalance", "curtailed energy",
    ],
    "actions": [
        "recalibrate the meters after each firmware update", "reserve a tenth of the battery for emergencies",
        "retrain the load forecast before every season", "stagger inverter reconnection after an outage",
        "review relay settings whenever a feeder is extended", "cap charging power during the evening peak",
        "inspect transformer oil every six months", "simulate islanding before commissioning a site",
        "publish the dispatch plan a day ahead", "replace cells whose capacity has faded",
        "compare forecasts with metered demand every morning", "notify priority customers before planned work",
    ],
    "objects": [
        "the dispatch plan", "the tariff calendar", "the relay settings", "the feeder map", "the asset register",
        "the forecast archive", "the outage log", "the charging policy",
    ],
    "figures": [
        ("Battery state of charge over a day", "Line chart of charge level following the dispatch signal for a day."),
        ("Forecast error by horizon", "Bar chart of mean forecast error for horizons from one to twenty-four hours."),
        ("Frequency response after a generator trip", "Line chart of grid frequency dipping and recovering."),
        ("Peak demand before and after demand response", "Bar chart comparing evening peaks on two weeks."),
        ("Transformer temperature against load", "Scatter plot of winding temperature against loading."),
        ("Vehicle charging profile", "Area chart of charging power over one night."),
    ],
    "tables": [
        ("Battery dispatch limits", ["Mode", "Max power in MW", "Min charge in %", "Ramp in MW per s"],
         ["arbitrage", "frequency response", "peak shaving", "backup"], [("float", 1, 50), ("int", 5, 40), ("float", 0.1, 5)]),
        ("Forecast accuracy by season", ["Season", "Mean error in %", "Worst day in %", "Samples"],
         ["spring", "summer", "autumn", "winter"], [("float", 1, 8), ("float", 5, 25), ("int", 800, 9000)]),
        ("Relay settings per feeder", ["Feeder", "Pickup in A", "Delay in ms", "Reclose"],
         ["north one", "north two", "harbour", "industrial park"], [("int", 200, 1200), ("int", 20, 400), ("choice", ["on", "off"])]),
    ],
    "list_intros": ["Restoring a feeder after a fault follows the sequence below:", "Commissioning a battery site requires the following checks:"],
    "list_items": [
        "Confirm that the faulty section is isolated and earthed.", "Check relay logs for the fault location.",
        "Close the upstream breaker with the downstream switches open.", "Reconnect priority customers first.",
        "Stagger the reconnection of inverters to avoid a surge.", "Verify voltage at the end of the feeder.",
        "Record the restoration steps in the outage log.", "Review the relay settings with the protection engineer.",
    ],
    "statements": [
        "A battery that reserves its frequency response capacity can follow any dispatch signal within its power rating.",
        "Staggered inverter reconnection keeps the inrush current below the rating of the upstream breaker.",
        "A forecast updated every fifteen minutes never has an error larger than the largest quarter-hour ramp.",
        "Peak shaving lowers the monthly demand charge whenever the battery is full at the start of the peak window.",
    ],
    "terms": [
        ("depth of discharge", "the share of the battery's rated capacity that is used in a single cycle"),
        ("ramp headroom", "the difference between the current output of a unit and its maximum ramp-up capability"),
        ("net load", "the demand that remains after local solar and wind generation are subtracted"),
        ("thermal margin", "the gap between a cable's present temperature and its rated limit"),
    ],
    "acronyms": [
        ("State Of Charge", "SOC", "The controller tracks the {L} ({A}) of every battery rack.",
         ["Dispatch is refused when the {A} falls below fifteen percent.", "The {A} estimate is corrected at every full charge."]),
        ("Distributed Energy Resource", "DER", "A rooftop array or a home battery counts as a {L} ({A}) under the grid code.",
         ["Each {A} must ride through short voltage dips.", "The head-end polls every {A} once per minute."]),
        ("Supervisory Control And Data Acquisition", "SCADA", "Substations report to the {L} ({A}) system in the control room.",
         ["Alarms from the {A} system are triaged by the duty engineer.", "The {A} link uses a dedicated fibre."]),
        ("Automatic Generation Control", "AGC", "Large units follow signals from the {L} ({A}) loop.",
         ["The battery joined the {A} loop after passing its tests.", "The {A} signal changes every four seconds."]),
    ],
    "symbols": [
        ("The nominal energy capacity of the battery", "is stated by the manufacturer", "E = {s} · D"),
        ("The droop coefficient of the inverter", "is set during commissioning", "P = − ( F − N ) / {s}"),
        ("The forecast load for the next interval", "is published every fifteen minutes", "M = {s} − G"),
        ("The charging efficiency of the battery", "is measured at the site", "S = {s} · I · T"),
    ],
    "tasks": ["battery dispatch", "feeder restoration", "load forecasting", "inverter reconnection", "tariff planning"],
    "components": ["state estimator", "dispatch optimiser", "relay supervisor", "meter collector"],
}
