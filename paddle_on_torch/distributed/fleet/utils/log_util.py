"""fleet's logger (paddle.distributed.fleet.utils.log_util.logger) and its level setters."""
import logging

__all__ = []

logger = logging.getLogger("paddle.distributed.fleet")
if not logger.handlers:
    _handler = logging.StreamHandler()
    _handler.setFormatter(logging.Formatter("[%(asctime)s] [%(levelname)8s] %(filename)s:%(lineno)s - %(message)s"))
    logger.addHandler(_handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False


def set_log_level(level):
    assert isinstance(level, (str, int)), "level's type must be str or int"
    logger.setLevel(level if isinstance(level, int) else level.upper())


def get_log_level_code():
    return logger.getEffectiveLevel()


def get_log_level_name():
    return logging.getLevelName(get_log_level_code())
