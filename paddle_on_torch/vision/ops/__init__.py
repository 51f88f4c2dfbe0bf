"""paddle.vision.ops: detection operators in plain torch (one module per operator family), and
ConvNormActivation."""
from .box_coder import box_coder
from .conv_norm import ConvNormActivation  # noqa: F401  (public, not in Paddle's __all__)
from .deform_conv import DeformConv2D, deform_conv2d
from .fpn import distribute_fpn_proposals
from .image import decode_jpeg, read_file
from .nms import nms
from .proposals import generate_proposals, matrix_nms
from .roi import PSRoIPool, RoIAlign, RoIPool, psroi_pool, roi_align, roi_pool
from .yolo import prior_box, yolo_box, yolo_loss

__all__ = ["box_coder", "deform_conv2d", "DeformConv2D", "read_file", "roi_pool", "RoIPool", "psroi_pool",
           "PSRoIPool", "roi_align", "RoIAlign", "nms", "prior_box", "yolo_box", "distribute_fpn_proposals",
           "matrix_nms", "generate_proposals", "yolo_loss", "decode_jpeg"]
