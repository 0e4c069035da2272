"""What a synthetic camera may do to a picture: ranges of every effect, and named presets.

A :class:`SynthConditions` is a frozen set of ranges; the renderer draws each
frame's actual values from them with a seeded generator. Presets name the
hard cases the vision pipeline must handle (``PRESETS``):

- ``clean``: overhead camera, even white light, no noise; for calibration.
- ``typical``: a webcam on a stand: some tilt, lens distortion, an uneven
  light with a slight colour cast, sensor noise, JPEG compression.
- ``pale-board``: boards whose light squares are nearly the colour of white
  stones and whose dark squares nearly that of black stones.
- ``warm-light``: a warm (tungsten) lamp: red stones against warm wood.
- ``glare``: a bright reflection of a lamp on the board.
- ``hands``: a hand and arm in the picture (over the board or beside it).
- ``hard``: all of the above at once, milder each.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from vision.errors import VisionError

Range = tuple[float, float]

BOARD_SCHEMES = ("wood", "green-cream", "grey", "blue", "pale", "maple-ebony")
"""Colour schemes of the board surface (light and dark squares, frame, lines)."""

PALE_SCHEMES = ("pale", "maple-ebony")
"""Schemes with light squares close to white stones and dark ones close to black."""


@dataclass(frozen=True)
class SynthConditions:
    """Ranges of the camera, light and scene effects; values are drawn per scene or frame.

    Scene (drawn once per camera set-up):
        ``board_schemes``: schemes to choose from (empty: all of ``BOARD_SCHEMES``).
        ``tilt_deg``: camera tilt from looking straight down.
        ``yaw_deg``: rotation of the board in the picture.
        ``fill``: share of the frame the board with its markers spans.
        ``fov_deg``: horizontal field of view of the lens.
        ``distortion``: radial distortion k1 range (negative is barrel).
        ``stone_height``: stone height in board units (cell pitch).
        ``stone_radius``: stone radius in board units.

    Light (drawn per frame):
        ``brightness``: overall gain.
        ``light_gradient``: largest fall-off of light across the frame.
        ``colour_cast``: largest per-channel gain deviation.
        ``warm``: extra warm cast (0: daylight, 1: tungsten lamp).
        ``glare_probability`` and ``glare_strength``: a specular spot.
        ``shadow_strength``: darkness of stone shadows.

    Sensor (drawn per frame):
        ``noise_sigma``: Gaussian noise in grey levels.
        ``motion_blur_probability`` and ``motion_blur_px``: camera shake.
        ``jpeg_quality``: compression quality range (0 for none).

    Play (drawn per frame):
        ``off_centre``: largest offset of a stone from its cell centre (board units).
        ``hand_probability``: chance of a hand in the frame.
        ``hand_over_board``: chance that such a hand covers the board.
        ``pose_jitter_px``: camera wobble between frames of one scene (pixels).
    """

    name: str = "typical"
    board_schemes: tuple[str, ...] = ()
    tilt_deg: Range = (0.0, 28.0)
    yaw_deg: Range = (-20.0, 20.0)
    fill: Range = (0.6, 0.85)
    fov_deg: Range = (55.0, 70.0)
    distortion: Range = (-0.10, 0.02)
    stone_height: float = 0.3
    stone_radius: float = 0.43
    brightness: Range = (0.8, 1.05)
    light_gradient: float = 0.3
    colour_cast: float = 0.06
    warm: Range = (0.0, 0.0)
    glare_probability: float = 0.15
    glare_strength: Range = (0.3, 0.7)
    shadow_strength: Range = (0.25, 0.45)
    noise_sigma: Range = (1.0, 3.5)
    motion_blur_probability: float = 0.1
    motion_blur_px: float = 3.0
    jpeg_quality: Range = (70.0, 95.0)
    off_centre: float = 0.05
    hand_probability: float = 0.0
    hand_over_board: float = 0.5
    pose_jitter_px: float = 0.0

    def schemes(self) -> tuple[str, ...]:
        """The board schemes to choose from."""
        return self.board_schemes or BOARD_SCHEMES

    def with_(self, **changes: object) -> SynthConditions:
        """A copy with some fields changed (a convenience over ``dataclasses.replace``)."""
        return replace(self, **changes)  # type: ignore[arg-type]


CLEAN = SynthConditions(
    name="clean",
    tilt_deg=(0.0, 0.0),
    yaw_deg=(0.0, 0.0),
    fill=(0.8, 0.8),
    fov_deg=(60.0, 60.0),
    distortion=(0.0, 0.0),
    brightness=(1.0, 1.0),
    light_gradient=0.0,
    colour_cast=0.0,
    glare_probability=0.0,
    shadow_strength=(0.3, 0.3),
    noise_sigma=(0.0, 0.0),
    motion_blur_probability=0.0,
    jpeg_quality=(0.0, 0.0),
    off_centre=0.0,
)
TYPICAL = SynthConditions()
PALE_BOARD = SynthConditions(name="pale-board", board_schemes=PALE_SCHEMES)
WARM_LIGHT = SynthConditions(name="warm-light", warm=(0.6, 1.0), brightness=(0.7, 0.95))
GLARE = SynthConditions(name="glare", glare_probability=1.0, glare_strength=(0.5, 1.0))
HANDS = SynthConditions(name="hands", hand_probability=1.0)
HARD = SynthConditions(
    name="hard",
    board_schemes=PALE_SCHEMES,
    tilt_deg=(15.0, 35.0),
    yaw_deg=(-35.0, 35.0),
    distortion=(-0.14, 0.03),
    light_gradient=0.4,
    colour_cast=0.08,
    warm=(0.0, 0.8),
    glare_probability=0.5,
    noise_sigma=(2.0, 5.0),
    motion_blur_probability=0.3,
    jpeg_quality=(55.0, 85.0),
    off_centre=0.08,
    hand_probability=0.3,
)

PRESETS: dict[str, SynthConditions] = {c.name: c for c in (CLEAN, TYPICAL, PALE_BOARD, WARM_LIGHT, GLARE, HANDS, HARD)}
"""The named presets, by name."""


class SynthError(VisionError, ValueError):
    """A synthetic scene was asked for something it cannot render (unknown preset, wrong position)."""


def preset(name: str) -> SynthConditions:
    """The preset called ``name``; raises SynthError naming the known presets."""
    try:
        return PRESETS[name.strip().lower()]
    except KeyError:
        raise SynthError(f"'{name}' is not a synthetic-camera preset: use one of {', '.join(PRESETS)}") from None
