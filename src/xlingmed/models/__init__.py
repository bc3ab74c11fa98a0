"""Model backends behind one async protocol, named ``provider/model``."""

from xlingmed.models.base import ModelAPI, ModelOptions, get_model, split_model_id

__all__ = ["ModelAPI", "ModelOptions", "get_model", "split_model_id"]
