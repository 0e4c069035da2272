"""Render a board position as a camera would see it, with its ground truth.

A :class:`Scene` is one camera set-up (board style, camera pose and lens,
light direction), drawn from a seed; a :class:`Renderer` draws positions in
that scene and keeps what does not change between frames (the board texture,
the lens tables, the last position's picture). :func:`render_frame` is the
one-call form: a new scene and one frame from a seed.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from referee.geometry import Geometry, parse_geometry
from vision.markers import default_markers
from vision.synth.board import BoardTexture, cells_box, draw_board, markers_box
from vision.synth.camera import CameraPose, distort, sample_pose
from vision.synth.conditions import TYPICAL, SynthConditions, SynthError
from vision.synth.effects import (
    SKIN_TONES,
    SLEEVES,
    Hand,
    LightField,
    apply_light,
    composite_hand,
    draw_hand,
    motion_blur,
    sensor,
)
from vision.synth.stones import Light, paste, pieces, shadow_sprite, stamp_max, stone_sprite

Point = tuple[float, float]
SYMBOLS = frozenset(".ox=")


@dataclass(frozen=True)
class Scene:
    """One camera set-up: board, style, camera pose and lens, light direction, table; drawn from ``seed``."""

    geometry_spec: str
    seed: int
    conditions: SynthConditions
    size: tuple[int, int]
    scheme: str
    pose: CameraPose
    light: Light
    shadow_strength: float
    base_light: LightField

    @property
    def geometry(self) -> Geometry:
        """The board's geometry."""
        return parse_geometry(self.geometry_spec)


def make_scene(
    geometry: Geometry | str,
    seed: int,
    conditions: SynthConditions = TYPICAL,
    size: tuple[int, int] = (1280, 720),
) -> Scene:
    """Draw a camera set-up for ``geometry`` from ``seed`` within ``conditions``."""
    geo = parse_geometry(geometry) if isinstance(geometry, str) else geometry
    rng = np.random.default_rng([seed, 0x5CE4E])
    schemes = conditions.schemes()
    scheme = schemes[int(rng.integers(len(schemes)))]
    pose = sample_pose(
        rng,
        markers_box(geo),
        size,
        conditions.tilt_deg,
        conditions.yaw_deg,
        conditions.fill,
        conditions.fov_deg,
        conditions.distortion,
    )
    light = Light.from_angles(rng.uniform(0, 360), rng.uniform(45, 75))
    shadow = float(rng.uniform(*conditions.shadow_strength))
    base = sample_light(rng, conditions, glare=False)
    return Scene(geo.spec, seed, conditions, size, scheme, pose, light, shadow, base)


def sample_light(
    rng: np.random.Generator,
    conditions: SynthConditions,
    glare: bool = True,
    pose: CameraPose | None = None,
    geometry: Geometry | None = None,
) -> LightField:
    """A frame's light drawn from ``conditions`` (a glare spot needs ``pose`` and ``geometry``)."""
    warm = float(rng.uniform(*conditions.warm))
    cc = conditions.colour_cast
    cast = (
        (1.0 - 0.28 * warm) * (1 + rng.uniform(-cc, cc)),
        (1.0 - 0.06 * warm) * (1 + rng.uniform(-cc, cc)),
        (1.0 + 0.12 * warm) * (1 + rng.uniform(-cc, cc)),
    )
    centre: Point | None = None
    radius = strength = 0.0
    if glare and pose is not None and geometry is not None and rng.random() < conditions.glare_probability:
        x0, y0, x1, y1 = cells_box(geometry)
        spot = np.array([[rng.uniform(x0, x1), rng.uniform(y0, y1)]])
        cx, cy = pose.project(spot)[0]
        centre = (float(cx), float(cy))
        radius = float(rng.uniform(0.4, 1.2) * _pitch_px(pose, geometry, spot[0]))
        strength = float(rng.uniform(*conditions.glare_strength))
    return LightField(
        gain=float(rng.uniform(*conditions.brightness)),
        gradient=float(rng.uniform(0.0, conditions.light_gradient)),
        gradient_angle=float(rng.uniform(0, 2 * math.pi)),
        cast=(float(cast[0]), float(cast[1]), float(cast[2])),
        glare_centre=centre,
        glare_radius_px=radius,
        glare_strength=strength,
    )


def _pitch_px(pose: CameraPose, geometry: Geometry, at: Sequence[float]) -> float:
    pts = pose.project(np.array([[at[0], at[1]], [at[0] + 1.0, at[1]], [at[0], at[1] + 1.0]]))
    return float((np.linalg.norm(pts[1] - pts[0]) + np.linalg.norm(pts[2] - pts[0])) / 2.0)


@dataclass(frozen=True, eq=False)
class SynthFrame:
    """A rendered picture and its ground truth.

    ``symbols`` per cell in the geometry's canonical order (``.``, ``o``,
    ``x``, ``=``) and ``counts`` (Kaskade balls per cell; 1 per stone on the
    other boards, 0 when empty). ``corners_px`` are the image positions of
    ``geometry.corners`` (lens distortion included); ``homography`` maps the
    board plane to the picture before lens distortion (exact when the lens
    has none). ``markers_px`` are the image corners of each ArUco marker by
    id. ``occluded`` is True when a hand, an arm or their shadow covers any
    cell; ``hand_visible`` when a hand is anywhere in the picture.
    """

    image: np.ndarray
    symbols: tuple[str, ...]
    counts: tuple[int, ...]
    corners_px: tuple[Point, Point, Point, Point]
    homography: np.ndarray
    occluded: bool
    hand_visible: bool
    pose: CameraPose
    scene: Scene
    markers_px: dict[int, tuple[Point, ...]] = field(default_factory=dict)

    @property
    def truth(self) -> tuple[str, ...]:
        """The true symbol of every cell (same as ``symbols``)."""
        return self.symbols


def check_position(
    geometry: Geometry, symbols: Sequence[str] | str, counts: Sequence[int] | None
) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Validate a position for ``geometry``: one symbol per cell, ball counts 0..3 on Kaskade boards."""
    syms = tuple(symbols)
    if len(syms) != len(geometry):
        raise SynthError(f"a {geometry.spec} position needs {len(geometry)} cell symbols, not {len(syms)}")
    bad = sorted(set(syms) - SYMBOLS)
    if bad:
        raise SynthError(f"unknown cell symbols {bad}: use . o x =")
    if counts is None:
        cnt = tuple(0 if s == "." else 1 for s in syms)
    else:
        cnt = tuple(int(c) for c in counts)
        if len(cnt) != len(syms):
            raise SynthError(f"give one ball count per cell ({len(syms)}), not {len(cnt)}")
        for s, c in zip(syms, cnt, strict=True):
            if (s == ".") != (c == 0) or not 0 <= c <= 3:
                raise SynthError("ball counts must be 1..3 on occupied cells and 0 on empty ones")
    return syms, cnt


class Renderer:
    """Draws positions in one :class:`Scene`, caching the board, the lens and the last position."""

    def __init__(self, scene: Scene) -> None:
        self.scene = scene
        self.geometry = scene.geometry
        self.board: BoardTexture = draw_board(self.geometry, scene.scheme, np.random.default_rng([scene.seed, 0xB0A]))
        rng = np.random.default_rng([scene.seed, 0x0FF])
        self.offsets = self.draw_offsets(rng)
        self._last_key: tuple[object, ...] | None = None
        self._last_picture: Composed | None = None
        x0, y0, x1, y1 = cells_box(self.geometry)
        self._cells_quad = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]])

    def draw_offsets(self, rng: np.random.Generator) -> np.ndarray:
        """Random off-centre placements (dx, dy, turn) for every cell, within the scene's conditions."""
        n = len(self.geometry)
        radius = self.scene.conditions.off_centre * np.sqrt(rng.uniform(0, 1, n))
        angle = rng.uniform(0, 2 * math.pi, n)
        return np.column_stack((radius * np.cos(angle), radius * np.sin(angle), rng.uniform(0, 2 * math.pi, n)))

    def pitch_px(self, at: Sequence[float] | None = None) -> float:
        """The cell pitch in pixels near board point ``at`` (default: the board's centre)."""
        if at is None:
            x0, y0, x1, y1 = cells_box(self.geometry)
            at = ((x0 + x1) / 2, (y0 + y1) / 2)
        return _pitch_px(self.scene.pose, self.geometry, at)

    def render(
        self,
        symbols: Sequence[str] | str,
        counts: Sequence[int] | None = None,
        seed: int = 0,
        *,
        light: LightField | None = None,
        hand: Hand | None = None,
        random_hand: bool = True,
        offsets: np.ndarray | None = None,
        pose: CameraPose | None = None,
    ) -> SynthFrame:
        """Render ``symbols`` (one per cell) with the frame's effects drawn from ``seed``.

        ``light`` fixes the light (default: drawn from the conditions);
        ``hand`` puts that hand in the picture, otherwise a hand appears with
        the conditions' ``hand_probability`` when ``random_hand``;
        ``offsets`` overrides the scene's stone placements; ``pose`` the camera.
        """
        syms, cnt = check_position(self.geometry, symbols, counts)
        cond = self.scene.conditions
        rng = np.random.default_rng([self.scene.seed, seed, 0xF4A])
        if pose is None:
            pose = self.scene.pose
            if cond.pose_jitter_px > 0:
                pose = pose.shifted(*rng.normal(0.0, cond.pose_jitter_px, 2))
        if light is None:
            light = sample_light(rng, cond, glare=True, pose=pose, geometry=self.geometry)
        if hand is None and random_hand and rng.random() < cond.hand_probability:
            hand = self.sample_hand(rng, over_board=rng.random() < cond.hand_over_board, pose=pose)
        composed = self._picture(syms, cnt, self.offsets if offsets is None else offsets, pose)
        image = composed.colour.copy()
        occluded = False
        glare_mask = composed.surface
        if hand is not None:
            alpha, colour, shadow = draw_hand(self.scene.size, hand)
            composite_hand(image, alpha, colour, shadow)
            occluded = self._covers_cells(alpha, shadow, pose)
            # the hand hides the board's reflection, and its shadow is where the lamp's light does not reach
            unlit = np.clip(shadow / max(hand.shadow_strength, 1e-3), 0.0, 1.0)
            glare_mask = glare_mask * (1.0 - alpha) * (1.0 - unlit)
        image = apply_light(image, light, glare_mask)
        if rng.random() < cond.motion_blur_probability:
            image = motion_blur(image, rng.uniform(1.0, cond.motion_blur_px), rng.uniform(0, math.pi))
        quality = int(round(rng.uniform(*cond.jpeg_quality))) if cond.jpeg_quality[1] > 0 else 0
        out = sensor(image, rng, float(rng.uniform(*cond.noise_sigma)), quality)
        corners = pose.project(np.array(self.geometry.corners))
        markers = {
            m.id: tuple((float(x), float(y)) for x, y in pose.project(np.array(m.corners)))
            for m in default_markers(self.geometry)
        }
        return SynthFrame(
            image=out,
            symbols=syms,
            counts=cnt,
            corners_px=tuple((float(x), float(y)) for x, y in corners),  # type: ignore[arg-type]
            homography=pose.plane_homography(0.0),
            occluded=occluded,
            hand_visible=hand is not None,
            pose=pose,
            scene=self.scene,
            markers_px=markers,
        )

    def _covers_cells(self, alpha: np.ndarray, shadow: np.ndarray, pose: CameraPose) -> bool:
        quad = pose.project(self._cells_quad)
        w, h = self.scene.size
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, np.round(quad).astype(np.int32), 1)
        inside = mask.astype(bool)
        return bool(np.any(alpha[inside] > 0.25) or np.any(shadow[inside] > 0.12))

    def sample_hand(
        self,
        rng: np.random.Generator,
        over_board: bool,
        pose: CameraPose | None = None,
        reach_board: Point | None = None,
    ) -> Hand | None:
        """A random hand: reaching over the board (to ``reach_board`` if given) or resting beside it.

        A hand beside the board keeps clear of the cells and the markers;
        None when no such place is in the picture.
        """
        pose = pose or self.scene.pose
        w, h = self.scene.size
        pitch = self.pitch_px()
        skin = SKIN_TONES[int(rng.integers(len(SKIN_TONES)))]
        sleeve = SLEEVES[int(rng.integers(len(SLEEVES)))]
        lx, ly, lz = self.scene.light.direction
        lift = rng.uniform(1.5, 3.0) * pitch
        shadow_px = (-lx / lz * lift, -ly / lz * lift)
        strength = float(rng.uniform(0.3, 0.55))
        if over_board:
            if reach_board is None:
                x0, y0, x1, y1 = cells_box(self.geometry)
                reach_board = (rng.uniform(x0, x1), rng.uniform(y0, y1))
            reach = pose.project(np.array([reach_board]))[0]
            side = rng.choice(4, p=[0.0, 0.15, 0.7, 0.15])
            entry = _edge_point(rng, side, w, h)
            return Hand(
                entry,
                (float(reach[0]), float(reach[1])),
                pitch,
                skin,
                sleeve,
                float(rng.uniform(0.05, 0.2)),
                shadow_px,
                strength,
            )
        gx0, gy0, gx1, gy1 = markers_box(self.geometry)
        keep_out = pose.project(np.array([[gx0, gy0], [gx1, gy0], [gx1, gy1], [gx0, gy1]]))
        mask: np.ndarray = np.zeros((h // 4, w // 4), np.uint8)
        cv2.fillConvexPoly(mask, np.round(keep_out / 4).astype(np.int32), 1)
        mask = cv2.dilate(mask, np.ones((5, 5), np.uint8))
        for _ in range(12):
            side = int(rng.choice(4, p=[0.1, 0.3, 0.3, 0.3]))
            entry = _edge_point(rng, side, w, h)
            inward = np.array([w / 2, h / 2]) - np.array(entry)
            inward /= np.linalg.norm(inward)
            reach = np.array(entry) + inward * rng.uniform(3.0, 6.0) * pitch
            candidate = Hand(
                entry,
                (float(reach[0]), float(reach[1])),
                pitch,
                skin,
                sleeve,
                float(rng.uniform(0.05, 0.2)),
                shadow_px,
                strength,
            )
            alpha, _, shadow = draw_hand((w // 4, h // 4), _scaled(candidate, 0.25))
            if not np.any((alpha > 0.05) & (mask > 0)) and not np.any((shadow > 0.05) & (mask > 0)):
                return candidate
        return None

    def _picture(self, syms: tuple[str, ...], cnt: tuple[int, ...], offsets: np.ndarray, pose: CameraPose) -> Composed:
        key = (syms, cnt, offsets.tobytes(), pose)
        if key == self._last_key and self._last_picture is not None:
            return self._last_picture
        picture = compose(self.geometry, self.board, self.scene, syms, cnt, offsets, pose)
        self._last_key, self._last_picture = key, picture
        return picture


def _scaled(hand: Hand, factor: float) -> Hand:
    return Hand(
        (hand.entry[0] * factor, hand.entry[1] * factor),
        (hand.reach[0] * factor, hand.reach[1] * factor),
        hand.pitch_px * factor,
        hand.skin,
        hand.sleeve,
        hand.fingers_spread,
        (hand.shadow_px[0] * factor, hand.shadow_px[1] * factor),
        hand.shadow_strength,
    )


def _edge_point(rng: np.random.Generator, side: int, w: int, h: int) -> Point:
    """A point just outside the picture: side 0 top, 1 right, 2 bottom, 3 left."""
    if side == 0:
        return (float(rng.uniform(0.1, 0.9) * w), -0.1 * h)
    if side == 1:
        return (1.1 * w, float(rng.uniform(0.2, 0.9) * h))
    if side == 2:
        return (float(rng.uniform(0.1, 0.9) * w), 1.1 * h)
    return (-0.1 * w, float(rng.uniform(0.2, 0.9) * h))


@dataclass(frozen=True, eq=False)
class Composed:
    """The picture of the board with its stones before light and sensor (float32 BGR), and ``surface``: the
    share (0..1) of each pixel that shows bare board or table in the lamp's light, the only place where the
    lamp's reflection (glare) can show; a stone hides it, and so does a stone's shadow."""

    colour: np.ndarray
    surface: np.ndarray


def compose(
    geometry: Geometry,
    board: BoardTexture,
    scene: Scene,
    syms: tuple[str, ...],
    cnt: tuple[int, ...],
    offsets: np.ndarray,
    pose: CameraPose,
) -> Composed:
    """The undistorted-then-distorted picture of the lit board with its stones, before light and sensor."""
    w, h = scene.size
    cond = scene.conditions
    ppu = board.px_per_unit
    to_tex = board.to_texture()
    placed = pieces(geometry, syms, cnt, offsets, cond.stone_radius)
    texture = board.image
    lit: np.ndarray = np.ones(texture.shape[:2], np.float32)
    if placed:
        shadow = np.zeros(texture.shape[:2], np.float32)
        for piece in placed:
            height = 2 * piece.radius if piece.ball else cond.stone_height
            dx, dy = scene.light.shadow_offset(height * 0.7)
            centre = to_tex[:2, :2] @ np.array(piece.centre) + to_tex[:2, 2]
            r_px = piece.radius * ppu
            stamp_max(shadow, shadow_sprite(round(r_px, 1), max(0.6, 0.06 * ppu)), tuple(centre), 0.9)
            stamp_max(
                shadow,
                shadow_sprite(round(r_px * 0.95, 1), max(0.8, 0.15 * ppu)),
                (centre[0] + dx * ppu, centre[1] + dy * ppu),
                1.0,
            )
        texture = (texture.astype(np.float32) * (1.0 - scene.shadow_strength * shadow)[..., None]).astype(np.uint8)
        lit = 1.0 - shadow
    to_image = pose.plane_homography(0.0) @ np.linalg.inv(to_tex)
    picture = cv2.warpPerspective(
        texture, to_image, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    ).astype(np.float32)
    surface = cv2.warpPerspective(lit, to_image, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if placed:
        balls = placed[0].ball
        planes = (
            [(2 * 0.5 * placed[0].radius, False)]
            if balls
            else [(0.3 * cond.stone_height, True), (0.65 * cond.stone_height, False)]
        )
        for height, body in planes:
            _draw_layer(picture, surface, placed, board, scene, pose, height, body)
    return Composed(distort(picture, pose), distort(surface, pose))


def _draw_layer(
    picture: np.ndarray,
    surface: np.ndarray,
    placed: list,
    board: BoardTexture,
    scene: Scene,
    pose: CameraPose,
    height: float,
    body: bool,
) -> None:
    geometry = scene.geometry
    ppu = board.px_per_unit
    x0, y0, x1, y1 = cells_box(geometry, 0.3)
    layer_tex = BoardTexture(np.zeros((1, 1, 3), np.uint8), (x0, y0, x1, y1), ppu)
    to_tex = layer_tex.to_texture()
    lw, lh = int(math.ceil((x1 - x0) * ppu)), int(math.ceil((y1 - y0) * ppu))
    colour = np.zeros((lh, lw, 3), np.float32)
    alpha = np.zeros((lh, lw), np.float32)
    for piece in placed:
        sprite = stone_sprite(piece.symbol, round(piece.radius * ppu, 1), scene.light, piece.ball, body)
        centre = to_tex[:2, :2] @ np.array(piece.centre) + to_tex[:2, 2]
        paste(colour, alpha, sprite, (float(centre[0]), float(centre[1])))
    layer = np.dstack((colour, alpha))
    to_image = pose.plane_homography(height) @ np.linalg.inv(to_tex)
    w, h = scene.size
    quad = cv2.perspectiveTransform(np.array([[[0, 0], [lw, 0], [lw, lh], [0, lh]]], np.float64), to_image)[0]
    qx0, qy0 = np.floor(quad.min(axis=0)).astype(int)
    qx1, qy1 = np.ceil(quad.max(axis=0)).astype(int)
    qx0, qy0, qx1, qy1 = max(qx0, 0), max(qy0, 0), min(qx1, w), min(qy1, h)
    if qx1 <= qx0 or qy1 <= qy0:
        return
    shift = np.array([[1.0, 0.0, -qx0], [0.0, 1.0, -qy0], [0.0, 0.0, 1.0]])
    warped = cv2.warpPerspective(layer, shift @ to_image, (qx1 - qx0, qy1 - qy0), flags=cv2.INTER_LINEAR)
    roi = picture[qy0:qy1, qx0:qx1]
    a = warped[..., 3:4]
    roi *= 1.0 - a
    roi += warped[..., :3]
    surface[qy0:qy1, qx0:qx1] *= 1.0 - warped[..., 3]


def render_frame(
    geometry: Geometry | str,
    symbols: Sequence[str] | str,
    seed: int,
    conditions: SynthConditions = TYPICAL,
    size: tuple[int, int] = (1280, 720),
    counts: Sequence[int] | None = None,
) -> SynthFrame:
    """Render one picture of ``symbols`` on ``geometry`` in a new scene drawn from ``seed``.

    Deterministic: the same arguments give the same picture. ``symbols`` is
    one of ``.``, ``o``, ``x``, ``=`` per cell in canonical order (a string
    or a sequence); ``counts`` gives Kaskade ball counts (default 1 per stone).
    """
    scene = make_scene(geometry, seed, conditions, size)
    return Renderer(scene).render(symbols, counts, seed)
