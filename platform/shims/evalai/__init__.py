from .main import evaluate  # noqa: F401  (EvalAI imports evaluate from the package)
