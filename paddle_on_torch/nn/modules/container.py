"""paddle.nn.modules.container: the layer containers under their torch names too."""
from ..layer.container import LayerDict, LayerList  # noqa: F401

ModuleDict = LayerDict
ModuleList = LayerList
