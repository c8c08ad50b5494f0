"""Domain vocabulary: manufacturing and quality control."""

__all__ = ["DOMAIN"]

DOMAIN = {
    "name": "manufacturing",
    "tops": ["Production Line Control", "Quality Assurance", "Maintenance Planning", "Supply and Logistics"],
    "subs": [
        "Sensor Calibration", "Statistical Process Control", "Defect Classification", "Tool Wear", "Line Balancing",
        "Changeover Planning", "Inspection Stations", "Preventive Maintenance", "Spare Parts", "Batch Traceability",
        "Operator Training", "Vision Inspection", "Scrap Reduction", "Supplier Audits", "Warehouse Flow",
        "Energy Use on the Line",
    ],
    "subjects": [
        "the vision station", "the line controller", "each torque sensor", "the maintenance planner",
        "the inspection cell", "the batch tracker", "the conveyor drive", "the calibration rig",
        "the scrap monitor", "the parts kiosk", "the packaging robot", "the quality dashboard",
    ],
    "preds": [
        "rejects parts whose dimensions drift outside tolerance", "logs every measurement against the batch number",
        "slows the conveyor when the buffer fills up", "schedules maintenance during planned stops",
        "flags tools that are close to their wear limit", "checks its readings against a reference gauge every shift",
        "keeps a photo of every rejected part", "balances work between the two assembly cells",
        "orders spare parts before stock runs out", "stops the line when a safety door opens",
        "groups defects by their most likely cause", "records the operator who approved each changeover",
        "reports the first-pass yield every hour", "keeps work in progress below the agreed limit",
    ],
    "conds": [
        "a new product variant is introduced", "a sensor drifts after maintenance", "the defect rate rises above two percent",
        "a supplier changes its raw material", "the line runs a double shift", "a tool breaks mid-batch",
        "humidity in the hall rises", "a customer reports a field failure", "the buffer before packaging fills up",
        "a changeover takes longer than planned",
    ],
    "metrics": [
        "first-pass yield", "scrap rate", "changeover time", "station uptime",
        "mean time between failures", "inspection throughput", "measurement repeatability", "inventory turns",
    ],
    "actions": [
        "recalibrate the torque sensors after each maintenance stop", "quarantine the batch until the root cause is known",
        "tighten the control limits for critical dimensions", "rebalance stations after a layout change",
        "replace cutting tools on a fixed schedule", "audit the supplier's incoming inspection",
        "retrain operators on the revised work instruction", "add a vision check before packaging",
        "stock critical spares at the line side", "review scrap reasons at the daily stand-up",
        "trace affected serial numbers back to the raw material lot", "run a capability study on the new fixture",
    ],
    "objects": [
        "the control chart", "the work instruction", "the maintenance calendar", "the defect catalogue",
        "the spare parts list", "the batch record", "the supplier scorecard", "the line layout",
    ],
    "figures": [
        ("Control chart of bore diameter", "Control chart of bore diameter with upper and lower limits over fifty samples."),
        ("Defects by cause over a month", "Pareto chart of defect counts by cause."),
        ("Tool wear against parts produced", "Line chart of flank wear growing with the number of parts."),
        ("Changeover time per shift", "Bar chart of changeover durations for six shifts."),
        ("Scrap rate before and after the vision check", "Bar chart comparing weekly scrap rates."),
        ("Line layout with inspection points", "Diagram of eight stations with three inspection points."),
    ],
    "tables": [
        ("Control limits for critical dimensions", ["Dimension", "Nominal in mm", "Lower limit", "Upper limit"],
         ["bore diameter", "flange thickness", "hole spacing", "overall length"], [("float", 5, 120), ("float", 4, 119), ("float", 6, 121)]),
        ("Maintenance intervals", ["Asset", "Interval in hours", "Duration in min", "Critical"],
         ["press", "milling centre", "conveyor", "packaging robot"], [("int", 100, 2000), ("int", 15, 240), ("choice", ["yes", "no"])]),
        ("Supplier quality scores", ["Supplier", "Defects per million", "On-time rate in %", "Audit grade"],
         ["alpha metals", "harbour plastics", "north fasteners", "delta coatings"], [("int", 20, 900), ("int", 80, 100), ("choice", ["A", "B", "C"])]),
    ],
    "list_intros": ["A changeover to a new variant follows the steps below:", "When a batch is quarantined, the team works through the following list:"],
    "list_items": [
        "Stop the line at the end of the current batch.", "Remove the fixtures of the previous variant.",
        "Install and clamp the new fixtures.", "Load the program for the new variant on every station.",
        "Run five trial parts and measure every critical dimension.", "Release the line once all trial parts pass.",
        "Record the changeover time in the batch record.", "Return unused material to the warehouse.",
    ],
    "statements": [
        "A process that stays within its control limits for twenty-five consecutive samples is capable at the current tolerance.",
        "Replacing tools before the wear limit keeps the scrap rate from tool breakage at zero.",
        "A line whose stations are balanced within five percent reaches the throughput of its slowest station.",
        "Tracing a defect to its raw material lot identifies every affected serial number.",
    ],
    "terms": [
        ("takt time", "the available production time divided by the number of units the customer requires"),
        ("process capability", "the ratio between the tolerance width and six standard deviations of the process"),
        ("changeover loss", "the production time lost between the last good part of one variant and the first good part of the next"),
        ("measurement drift", "the slow change of a sensor's reading while the measured quantity stays constant"),
    ],
    "acronyms": [
        ("Overall Equipment Effectiveness", "OEE", "Line performance is summarised by the {L} ({A}) of each shift.",
         ["The {A} of the night shift lags the day shift by several points.", "Unplanned stops are the largest loss in the {A} figures."]),
        ("Statistical Process Control", "SPC", "Critical dimensions are monitored with {L} ({A}) charts at every station.",
         ["An {A} alarm stops the station until a technician reviews it.", "The {A} charts are reset after a tooling change."]),
        ("Computerised Maintenance Management System", "CMMS", "Work orders are planned in the {L} ({A}).",
         ["Every repair is closed in the {A} with its root cause.", "The {A} raises a work order when a counter expires."]),
        ("Failure Mode and Effects Analysis", "FMEA", "Each new fixture goes through a {L} ({A}) before release.",
         ["The {A} ranks risks by severity, occurrence and detection.", "Field failures are fed back into the {A}."]),
    ],
    "symbols": [
        ("The nominal cycle time of a station", "is taken from the line design", "Y = H / {s}"),
        ("The standard deviation of the measured dimension", "is estimated from the last hundred parts", "K = W / ( 6 · {s} )"),
        ("The defect rate of the inspection cell", "is counted per thousand parts", "G = ( 1 − {s} ) · N"),
        ("The tool wear rate", "is measured on the calibration rig", "L = M / {s}"),
    ],
    "tasks": ["tool replacement", "batch release", "line balancing", "defect triage", "supplier onboarding"],
    "components": ["yield tracker", "wear estimator", "label printer", "buffer controller"],
}
