"""What happens between the board and the file: light, glare, hands, and the camera's sensor.

Every function here works on the picture (image space) and is pure given its
arguments and a seeded generator.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

Point = tuple[float, float]
BGR = tuple[float, float, float]

SKIN_TONES: tuple[BGR, ...] = (
    (150.0, 175.0, 225.0),
    (130.0, 160.0, 210.0),
    (105.0, 135.0, 190.0),
    (80.0, 110.0, 160.0),
    (55.0, 75.0, 120.0),
    (40.0, 55.0, 85.0),
)
SLEEVES: tuple[BGR, ...] = (
    (40.0, 40.0, 40.0),
    (140.0, 90.0, 40.0),
    (60.0, 60.0, 160.0),
    (200.0, 200.0, 200.0),
    (60.0, 120.0, 60.0),
    (120.0, 120.0, 120.0),
)


@dataclass(frozen=True)
class LightField:
    """The light on one frame: overall gain, a linear fall-off, per-channel cast, a glare spot."""

    gain: float
    gradient: float
    gradient_angle: float
    cast: BGR
    glare_centre: Point | None = None
    glare_radius_px: float = 0.0
    glare_strength: float = 0.0


GLARE_VEIL = 0.1
"""Share of a glare spot's light that reaches every pixel of the spot (scatter in the lens), not only the
bare board that mirrors the lamp."""


def apply_light(image: np.ndarray, light: LightField, glare_mask: np.ndarray | None = None) -> np.ndarray:
    """``image`` (float32 BGR) lit by ``light``: gain, gradient, vignetting, colour cast, glare.

    The glare is the lamp mirrored by the board's glossy surface: ``glare_mask``
    (0..1 per pixel) says where that surface shows in the lamp's light (not
    under a stone, a hand or their shadows). Elsewhere only a veil of
    ``GLARE_VEIL`` of it shows; a stone's own gloss is in its sprite.
    """
    h, w = image.shape[:2]
    small_w, small_h = 64, 36
    ys, xs = np.mgrid[0:small_h, 0:small_w].astype(np.float32)
    u, v = xs / (small_w - 1) - 0.5, ys / (small_h - 1) - 0.5
    ramp = u * math.cos(light.gradient_angle) + v * math.sin(light.gradient_angle)
    field = light.gain * (1.0 - light.gradient * (ramp + 0.5)) * (1.0 - 0.25 * (u * u + v * v))
    gain = cv2.resize(field.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    out = image * gain[..., None]
    out *= np.array(light.cast, np.float32)
    if light.glare_centre is not None and light.glare_strength > 0:
        _add_glare(out, light.glare_centre, light.glare_radius_px, light.glare_strength * 255.0, glare_mask)
    return out


def _add_glare(image: np.ndarray, centre: Point, radius: float, peak: float, mask: np.ndarray | None) -> None:
    h, w = image.shape[:2]
    cx, cy = centre
    reach_x, reach_y = int(3 * 1.6 * radius), int(3 * radius)  # the spot is stretched 1.6 times across
    x0, x1 = max(0, int(cx) - reach_x), min(w, int(cx) + reach_x)
    y0, y1 = max(0, int(cy) - reach_y), min(h, int(cy) + reach_y)
    if x1 <= x0 or y1 <= y0:
        return
    ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    d2 = ((xs - cx) / 1.6) ** 2 + (ys - cy) ** 2
    spot = peak * np.exp(-d2 / (2.0 * radius * radius))
    if mask is not None:
        spot *= GLARE_VEIL + (1.0 - GLARE_VEIL) * mask[y0:y1, x0:x1]
    image[y0:y1, x0:x1] += spot[..., None]


@dataclass(frozen=True)
class Hand:
    """A hand and forearm reaching into the picture from ``entry`` (outside it) to ``reach`` (the palm).

    ``pitch_px`` is the board's cell pitch in pixels near the palm, which sets
    the hand's size; ``shadow_px`` where its shadow falls relative to it.
    """

    entry: Point
    reach: Point
    pitch_px: float
    skin: BGR
    sleeve: BGR
    fingers_spread: float
    shadow_px: Point
    shadow_strength: float
    blur_px: float = 0.0


def draw_hand(size: tuple[int, int], hand: Hand) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The hand's alpha (0..1), its colour picture and its shadow (0..1), each at ``size``."""
    w, h = size
    scale = 4
    sw, sh = w // scale, h // scale
    p = hand.pitch_px / scale
    ex, ey = hand.entry[0] / scale, hand.entry[1] / scale
    rx, ry = hand.reach[0] / scale, hand.reach[1] / scale
    angle = math.atan2(ry - ey, rx - ex)
    ux, uy = math.cos(angle), math.sin(angle)
    nx, ny = -uy, ux
    skin_mask = np.zeros((sh, sw), np.uint8)
    sleeve_mask = np.zeros((sh, sw), np.uint8)
    wrist = (rx - ux * 1.2 * p, ry - uy * 1.2 * p)
    elbow_side = (ex - ux * 3 * p, ey - uy * 3 * p)
    cuff = (wrist[0] - ux * 2.5 * p, wrist[1] - uy * 2.5 * p)

    def pt(x: float, y: float) -> tuple[int, int]:
        return int(round(x * 16)), int(round(y * 16))

    cv2.line(skin_mask, pt(*elbow_side), pt(*wrist), 255, max(1, int(1.7 * p)), cv2.LINE_AA, 4)
    cv2.line(sleeve_mask, pt(*elbow_side), pt(*cuff), 255, max(1, int(2.1 * p)), cv2.LINE_AA, 4)
    cv2.ellipse(
        skin_mask,
        pt(rx, ry),
        (int(1.25 * p * 16), int(1.05 * p * 16)),
        math.degrees(angle),
        0,
        360,
        255,
        -1,
        cv2.LINE_AA,
        4,
    )
    for k in range(4):
        off = (k - 1.5) * 0.5 * p
        spread = (k - 1.5) * hand.fingers_spread
        base = (rx + ux * 0.9 * p + nx * off, ry + uy * 0.9 * p + ny * off)
        fa = angle + spread
        length = (1.5 - 0.25 * abs(k - 1.5)) * p
        tip = (base[0] + math.cos(fa) * length, base[1] + math.sin(fa) * length)
        cv2.line(skin_mask, pt(*base), pt(*tip), 255, max(1, int(0.42 * p)), cv2.LINE_AA, 4)
    thumb_base = (rx + nx * 0.9 * p, ry + ny * 0.9 * p)
    ta = angle + 1.0
    thumb_tip = (thumb_base[0] + math.cos(ta) * 1.1 * p, thumb_base[1] + math.sin(ta) * 1.1 * p)
    cv2.line(skin_mask, pt(*thumb_base), pt(*thumb_tip), 255, max(1, int(0.45 * p)), cv2.LINE_AA, 4)

    mask = np.maximum(skin_mask, sleeve_mask).astype(np.float32) / 255.0
    if hand.blur_px > 1.0:
        mask = _motion_blur(mask, hand.blur_px / scale, angle)
    shade = cv2.GaussianBlur(mask, (0, 0), max(0.5, 0.5 * p))
    shift = np.array([[1, 0, hand.shadow_px[0] / scale], [0, 1, hand.shadow_px[1] / scale]], np.float32)
    shadow = cv2.warpAffine(mask, shift, (sw, sh))
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.5, 0.6 * p)) * hand.shadow_strength
    sleeve = (sleeve_mask.astype(np.float32) / 255.0)[..., None]
    colour = np.array(hand.skin, np.float32) * (1 - sleeve) + np.array(hand.sleeve, np.float32) * sleeve
    colour = colour * (0.65 + 0.45 * shade[..., None])
    big = (w, h)
    return (
        cv2.resize(mask, big, interpolation=cv2.INTER_LINEAR),
        cv2.resize(colour, big, interpolation=cv2.INTER_LINEAR),
        cv2.resize(shadow, big, interpolation=cv2.INTER_LINEAR),
    )


def composite_hand(image: np.ndarray, alpha: np.ndarray, colour: np.ndarray, shadow: np.ndarray) -> None:
    """Darken ``image`` by the hand's shadow and draw the hand over it, in place."""
    image *= (1.0 - shadow)[..., None]
    image *= (1.0 - alpha)[..., None]
    image += colour * alpha[..., None]


def _motion_blur(image: np.ndarray, length: float, angle: float) -> np.ndarray:
    n = max(3, int(round(length)) | 1)
    kernel = np.zeros((n, n), np.float32)
    c = n // 2
    dx, dy = math.cos(angle) * c, math.sin(angle) * c
    cv2.line(kernel, (int(round(c - dx)), int(round(c - dy))), (int(round(c + dx)), int(round(c + dy))), 1.0, 1)
    kernel /= kernel.sum()
    return cv2.filter2D(image, -1, kernel)


def motion_blur(image: np.ndarray, length_px: float, angle: float) -> np.ndarray:
    """Camera shake: a line blur of ``length_px`` pixels at ``angle`` radians."""
    if length_px < 1.5:
        return image
    return _motion_blur(image, length_px, angle)


def sensor(image: np.ndarray, rng: np.random.Generator, noise_sigma: float, jpeg_quality: int) -> np.ndarray:
    """Sensor noise and JPEG compression: the float picture as the camera delivers it (uint8 BGR)."""
    if noise_sigma > 0:
        noise = rng.standard_normal(image.shape[:2], dtype=np.float32)
        luma = noise_sigma * noise
        image += luma[..., None]
        chroma = cv2.resize(
            rng.standard_normal((image.shape[0] // 2, image.shape[1] // 2, 3), dtype=np.float32),
            (image.shape[1], image.shape[0]),
            interpolation=cv2.INTER_NEAREST,
        )
        image += 0.5 * noise_sigma * chroma
    out = np.clip(image, 0, 255).astype(np.uint8)
    if jpeg_quality > 0:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        if ok:
            out = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return out
