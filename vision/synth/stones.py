"""Stones and balls: shaded sprites with highlights, their layers above the board, their shadows on it.

A stone (Cascade, Cascades) is a lens-shaped disc of height ``stone_height``:
drawn as a dark lower body and a shaded dome, each on its own plane above the
board so that the camera's perspective shifts the top away from the cell
centre as it does with real stones. Kaskade balls are small spheres, one to
three grouped in a cell, drawn on the plane through their centres.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from referee.geometry import Geometry, Layout

BGR = tuple[float, float, float]

STONE_COLOURS: dict[str, BGR] = {"o": (222.0, 226.0, 229.0), "x": (30.0, 30.0, 34.0), "=": (42.0, 48.0, 188.0)}
"""Base colours (BGR) of the three stone colours under white light."""

SPECULAR = {"o": 0.25, "x": 0.55, "=": 0.35}
BALL_RADIUS = 0.15
BALL_SPREAD = 0.2


@dataclass(frozen=True)
class Light:
    """The main light: a unit direction towards it (board x, y, and z up) and the ambient share."""

    direction: tuple[float, float, float]
    ambient: float = 0.45

    @classmethod
    def from_angles(cls, azimuth_deg: float, elevation_deg: float, ambient: float = 0.45) -> Light:
        """A light at ``azimuth_deg`` around the board and ``elevation_deg`` above it."""
        az, el = math.radians(azimuth_deg), math.radians(elevation_deg)
        return cls((math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), math.sin(el)), ambient)

    def shadow_offset(self, height: float) -> tuple[float, float]:
        """Where the shadow of a point ``height`` above the board falls, relative to its foot."""
        lx, ly, lz = self.direction
        return (-lx / lz * height, -ly / lz * height)


@dataclass(frozen=True)
class Sprite:
    """A premultiplied BGR picture and its alpha, centred on pixel (r, r)."""

    colour: np.ndarray
    alpha: np.ndarray

    @property
    def radius(self) -> int:
        """Half the sprite's side, in pixels."""
        return self.alpha.shape[0] // 2


@lru_cache(maxsize=64)
def stone_sprite(symbol: str, radius_px: float, light: Light, ball: bool, body: bool = False) -> Sprite:
    """The shaded sprite of a stone (or a ball) of colour ``symbol`` seen from above.

    ``body`` gives the stone's darker lower part instead of its dome.
    """
    half = int(math.ceil(radius_px)) + 2
    ys, xs = np.mgrid[-half : half + 1, -half : half + 1].astype(np.float32)
    dist = np.sqrt(xs * xs + ys * ys)
    alpha = np.clip(radius_px - dist + 0.5, 0.0, 1.0)
    base = np.array(STONE_COLOURS[symbol], np.float32)
    if body:
        colour = np.broadcast_to(base * 0.55, (*alpha.shape, 3)).copy()
        return Sprite(colour * alpha[..., None], alpha)
    rho2 = np.clip((dist / radius_px) ** 2, 0.0, 1.0)
    dome = np.sqrt(1.0 - rho2)
    if ball:
        normal = np.stack((xs / radius_px, ys / radius_px, dome), axis=-1)
        shininess, ks = 60.0, 0.7
    else:
        normal = np.stack((xs / radius_px, ys / radius_px, 1.3 * dome + 0.2), axis=-1)
        shininess, ks = 30.0, SPECULAR[symbol]
    normal /= np.linalg.norm(normal, axis=-1, keepdims=True)
    lvec = np.array(light.direction, np.float32)
    half_vec = lvec + np.array([0.0, 0.0, 1.0], np.float32)
    half_vec /= np.linalg.norm(half_vec)
    diffuse = np.clip(normal @ lvec, 0.0, 1.0)
    specular = np.clip(normal @ half_vec, 0.0, 1.0) ** shininess
    shade = (light.ambient + (1.0 - light.ambient) * 1.1 * diffuse) * (0.8 + 0.2 * dome)
    colour = base * shade[..., None] + (255.0 * ks * specular)[..., None]
    colour = np.clip(colour, 0.0, 255.0)
    return Sprite((colour * alpha[..., None]).astype(np.float32), alpha.astype(np.float32))


@lru_cache(maxsize=16)
def shadow_sprite(radius_px: float, blur_px: float) -> np.ndarray:
    """A soft disc (0..1) for a shadow of radius ``radius_px``."""
    half = int(math.ceil(radius_px + 3 * blur_px)) + 2
    disc: np.ndarray = np.zeros((2 * half + 1, 2 * half + 1), np.float32)
    cv2.circle(disc, (half, half), int(round(radius_px)), 1.0, -1, cv2.LINE_AA)
    if blur_px > 0.3:
        disc = cv2.GaussianBlur(disc, (0, 0), blur_px)
    return disc


def paste(layer: np.ndarray, alpha: np.ndarray, sprite: Sprite, centre: tuple[float, float]) -> None:
    """Draw ``sprite`` over ``layer``/``alpha`` (premultiplied) with its centre at pixel ``centre``."""
    r = sprite.radius
    cx, cy = int(round(centre[0])), int(round(centre[1]))
    x0, y0, x1, y1 = cx - r, cy - r, cx + r + 1, cy + r + 1
    h, w = alpha.shape
    sx0, sy0 = max(0, -x0), max(0, -y0)
    x0c, y0c, x1c, y1c = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1c <= x0c or y1c <= y0c:
        return
    src_a = sprite.alpha[sy0 : sy0 + y1c - y0c, sx0 : sx0 + x1c - x0c]
    src_c = sprite.colour[sy0 : sy0 + y1c - y0c, sx0 : sx0 + x1c - x0c]
    keep = 1.0 - src_a
    layer[y0c:y1c, x0c:x1c] = layer[y0c:y1c, x0c:x1c] * keep[..., None] + src_c
    alpha[y0c:y1c, x0c:x1c] = alpha[y0c:y1c, x0c:x1c] * keep + src_a


def stamp_max(target: np.ndarray, stamp: np.ndarray, centre: tuple[float, float], weight: float) -> None:
    """``target = max(target, weight * stamp)`` with the stamp centred at pixel ``centre``."""
    r = stamp.shape[0] // 2
    cx, cy = int(round(centre[0])), int(round(centre[1]))
    x0, y0 = cx - r, cy - r
    h, w = target.shape
    x0c, y0c, x1c, y1c = max(x0, 0), max(y0, 0), min(x0 + stamp.shape[1], w), min(y0 + stamp.shape[0], h)
    if x1c <= x0c or y1c <= y0c:
        return
    part = stamp[y0c - y0 : y1c - y0, x0c - x0 : x1c - x0] * weight
    np.maximum(target[y0c:y1c, x0c:x1c], part, out=target[y0c:y1c, x0c:x1c])


@dataclass(frozen=True)
class Piece:
    """One stone or ball to draw: its colour, board-plane centre, radius and the height of its centre."""

    symbol: str
    centre: tuple[float, float]
    radius: float
    ball: bool


def pieces(
    geometry: Geometry,
    symbols: tuple[str, ...],
    counts: tuple[int, ...],
    offsets: np.ndarray,
    stone_radius: float,
) -> list[Piece]:
    """The stones (or Kaskade balls) of a position, placed with their off-centre ``offsets`` (N×3: dx, dy, turn)."""
    result = []
    balls = geometry.kind == "grid"
    radius = stone_radius if geometry.layout is not Layout.POINT else min(stone_radius, 0.47)
    for i, symbol in enumerate(symbols):
        if symbol == ".":
            continue
        x, y = geometry.centres[i]
        dx, dy, turn = offsets[i]
        if not balls:
            result.append(Piece(symbol, (x + dx, y + dy), radius, False))
            continue
        n = max(1, counts[i])
        for k in range(n):
            if n == 1:
                px, py = 0.0, 0.0
            else:
                angle = turn + 2.0 * math.pi * k / n
                spread = BALL_SPREAD if n == 2 else BALL_SPREAD * 1.15
                px, py = spread * math.cos(angle), spread * math.sin(angle)
            result.append(Piece(symbol, (x + dx * 0.5 + px, y + dy * 0.5 + py), BALL_RADIUS, True))
    return result
