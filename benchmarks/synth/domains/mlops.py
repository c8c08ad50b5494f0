"""Domain vocabulary: machine-learning systems in production."""

__all__ = ["DOMAIN"]

DOMAIN = {
    "name": "mlops",
    "tops": ["Model Training Infrastructure", "Model Serving", "Data Pipelines for Learning", "Model Monitoring"],
    "subs": [
        "Feature Stores", "Training Schedules", "Batch Inference", "Online Serving", "Model Registry",
        "Shadow Deployments", "Drift Detection", "Label Collection", "Evaluation Suites", "Hardware Allocation",
        "Checkpoint Management", "Rollback Rules", "Data Validation", "Experiment Tracking", "Cost Control",
        "Fairness Reviews",
    ],
    "subjects": [
        "the training scheduler", "the feature store", "the serving fleet", "the model registry",
        "the evaluation harness", "the data validator", "the batch scorer", "the drift monitor",
        "the experiment tracker", "the label queue", "the inference gateway", "the checkpoint store",
    ],
    "preds": [
        "keeps training and serving features in step", "rejects batches with missing or malformed columns",
        "promotes a model only after a clean pass of the evaluation suite", "scales replicas with the request rate",
        "records every training run with its data snapshot", "flags inputs that fall outside the training distribution",
        "stores checkpoints at the end of every epoch", "batches small requests to use the accelerators fully",
        "compares live predictions with delayed labels", "retires models that have not served traffic for a month",
        "caches embeddings for frequent queries", "replays a day of traffic against every candidate model",
        "limits each team to its share of the accelerator pool", "keeps the previous model warm for instant rollback",
    ],
    "conds": [
        "the input distribution shifts", "a training job runs out of memory", "labels arrive late",
        "a new feature is added upstream", "the request rate triples during a sale", "an accelerator node fails",
        "a candidate model underperforms on a key segment", "the data snapshot is incomplete",
        "two teams request the same hardware", "a model has not been retrained for a quarter",
    ],
    "metrics": [
        "prediction latency", "calibration error", "training cost", "label delay", "feature freshness",
        "accelerator utilisation", "precision at the top ranks", "rollback frequency",
    ],
    "actions": [
        "retrain the model on the most recent month of data", "freeze the feature schema before a release",
        "compare the candidate with the current model on held-out data", "roll back to the previous model",
        "rebalance the accelerator quotas between teams", "backfill missing labels from the audit log",
        "pin the data snapshot used for each experiment", "shadow the new model for a week before launch",
        "profile the serving path for slow operators", "prune features that no model uses",
        "archive checkpoints of abandoned experiments", "review segment-level metrics with the product team",
    ],
    "objects": [
        "the feature schema", "the evaluation report", "the data snapshot", "the accelerator quota",
        "the rollout plan", "the label backlog", "the serving configuration", "the experiment log",
    ],
    "figures": [
        ("Prediction latency against batch size", "Line chart of inference latency growing with batch size."),
        ("Calibration before and after retraining", "Reliability diagram comparing two models."),
        ("Accelerator utilisation per team", "Bar chart of accelerator hours used by five teams."),
        ("Feature drift over a quarter", "Line chart of a drift measure for three features over thirteen weeks."),
        ("Label delay distribution", "Histogram of hours between prediction and label arrival."),
        ("Shadow traffic agreement", "Bar chart of the share of identical predictions per segment."),
    ],
    "tables": [
        ("Evaluation metrics of candidate models", ["Model", "Precision", "Recall", "Latency in ms"],
         ["baseline", "candidate one", "candidate two", "distilled"], [("float", 0.6, 0.95), ("float", 0.5, 0.9), ("int", 4, 60)]),
        ("Accelerator quotas", ["Team", "Quota in hours", "Used in hours", "Priority"],
         ["search", "ranking", "vision", "speech"], [("int", 200, 2000), ("int", 100, 1900), ("choice", ["high", "normal", "low"])]),
        ("Retraining triggers", ["Trigger", "Threshold", "Check interval", "Action"],
         ["input drift", "calibration error", "label delay", "data volume"],
         [("float", 0.05, 0.5), ("choice", ["hourly", "daily", "weekly"]), ("choice", ["retrain", "alert", "review"])]),
    ],
    "list_intros": ["Promoting a model to production takes the following steps:", "A rollback is carried out in the following order:"],
    "list_items": [
        "Register the candidate together with its data snapshot.", "Run the full evaluation suite on held-out data.",
        "Compare segment-level metrics with the current model.", "Shadow the candidate on live traffic for a week.",
        "Obtain sign-off from the owning team.", "Shift one percent of traffic to the candidate.",
        "Increase the share daily while calibration stays within bounds.", "Archive the evaluation report with the release notes.",
    ],
    "statements": [
        "If training and serving read features from the same snapshot, offline and online predictions agree exactly.",
        "A model retrained on a sliding window never lags the input distribution by more than the window length.",
        "Batching requests up to the accelerator's capacity does not increase mean latency under steady load.",
        "Shadow evaluation on a representative week bounds the error of the launch decision.",
    ],
    "terms": [
        ("feature staleness", "the age of the oldest feature value used in a prediction"),
        ("drift score", "the distance between the live input distribution and the training distribution"),
        ("label latency", "the delay between a prediction and the arrival of its ground-truth label"),
        ("serving skew", "the difference between offline and online predictions for the same input"),
    ],
    "acronyms": [
        ("Area Under the Curve", "AUC", "Ranking quality is summarised by the {L} ({A}) on the held-out set.",
         ["A candidate must improve the {A} on every major segment.", "The {A} hides poor calibration, so both are reported."]),
        ("Graphics Processing Unit", "GPU", "Training jobs are scheduled on a shared pool of {L} ({A}) servers.",
         ["Each {A} is assigned to one job at a time.", "Idle {A} hours are reclaimed after thirty minutes."]),
        ("Service Level Objective", "SLO", "Online serving has a {L} ({A}) of one hundred milliseconds at the ninety-ninth percentile.",
         ["Batching is tuned so that the {A} still holds at peak traffic.", "A breach of the {A} pages the serving team."]),
        ("Continuous Training", "CT", "Models with fast-moving inputs use {L} ({A}), retraining on every new day of data.",
         ["Each {A} run is evaluated before its model can be promoted.", "The {A} pipeline skips days with incomplete data."]),
    ],
    "symbols": [
        ("The learning rate of the optimiser", "is decayed after every epoch", "V = − {s} · G"),
        ("The fraction of traffic routed to the candidate model", "starts at one percent", "E = {s} · L + ( 1 − {s} ) · B"),
        ("The regularisation weight", "is tuned on the validation set", "J = F + {s} · R"),
        ("The batch size used at inference time", "is capped by accelerator memory", "Y = K / {s}"),
    ],
    "tasks": ["model promotion", "feature backfilling", "accelerator sharing", "drift response", "label collection"],
    "components": ["quota broker", "snapshot indexer", "canary router", "metric collector"],
}
