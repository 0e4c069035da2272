/* The LED controller: receives LED frames over the UART, drives a WS2812B chain, acknowledges.
 *
 * ATmega328P at 16 MHz (Arduino Uno, Nano). UART 115200 baud 8N1; LED data on D6 (PD6).
 * The protocol is in PROTOCOL.md one folder up. */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/pgmspace.h>
#include <avr/sleep.h>
#include <stdint.h>
#include <util/delay.h>

#include "protocol.h"
#include "ws2812.h"

#ifndef LED_COUNT
#define LED_COUNT 64
#endif
#if LED_COUNT < 1 || LED_COUNT > MAX_LEDS
#error "LED_COUNT must be 1..256"
#endif

#define BAUD 115200
#define UBRR_VALUE ((F_CPU + 4UL * BAUD) / (8UL * BAUD) - 1) /* double speed: 16 -> 117647 baud, +2.1 % */

#define TICKS_PER_S 15625UL /* Timer1 at F_CPU / 1024 */
#define HEARTBEAT_INTERVAL_TICKS (TICKS_PER_S)
#define HEARTBEAT_TIMEOUT_TICKS (3 * TICKS_PER_S)
#define DEFAULT_BRIGHTNESS 64
#define DISCONNECTED_COLOUR 4
#define DISCONNECTED_EVERY 4

#define PALETTE_COUNT 12
static const uint8_t palette[PALETTE_COUNT][3] PROGMEM = {
    {0, 0, 0},     {255, 255, 255}, {255, 0, 0},   {0, 255, 0},   {0, 0, 255},    {255, 160, 0},
    {0, 255, 255}, {255, 0, 255},   {255, 64, 0},  {128, 0, 255}, {255, 96, 128}, {48, 48, 48},
};

/* -- UART: interrupt-driven rings ------------------------------------------------------------- */

#define RX_RING 128
#define TX_RING 128
static volatile uint8_t rx_ring[RX_RING];
static volatile uint8_t rx_head, rx_tail;
static volatile uint8_t tx_ring[TX_RING];
static volatile uint8_t tx_head, tx_tail;

ISR(USART_RX_vect)
{
    uint8_t byte = UDR0;
    uint8_t next = (uint8_t)((rx_head + 1) & (RX_RING - 1));
    if (next != rx_tail) {
        rx_ring[rx_head] = byte;
        rx_head = next;
    }
}

ISR(USART_UDRE_vect)
{
    if (tx_head == tx_tail) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_ring[tx_tail];
    tx_tail = (uint8_t)((tx_tail + 1) & (TX_RING - 1));
}

static void uart_init(void)
{
    UBRR0H = (uint8_t)(UBRR_VALUE >> 8);
    UBRR0L = (uint8_t)UBRR_VALUE;
    UCSR0A = _BV(U2X0);
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);
}

static void uart_put(uint8_t byte)
{
    uint8_t next = (uint8_t)((tx_head + 1) & (TX_RING - 1));
    while (next == tx_tail) {
        /* the ring is full: the UDRE interrupt drains it */
    }
    tx_ring[tx_head] = byte;
    tx_head = next;
    UCSR0B |= _BV(UDRIE0);
}

static int16_t uart_get(void)
{
    if (rx_head == rx_tail) {
        return -1;
    }
    uint8_t byte = rx_ring[rx_tail];
    rx_tail = (uint8_t)((rx_tail + 1) & (RX_RING - 1));
    return byte;
}

/* -- clock: Timer1 counts at 15.625 kHz, its overflows extend it to 32 bits -------------------- */

static volatile uint16_t clock_high;

ISR(TIMER1_OVF_vect)
{
    clock_high++;
}

/* Timer0 wakes the CPU from idle sleep every millisecond. */
EMPTY_INTERRUPT(TIMER0_COMPA_vect);

static void clock_init(void)
{
    TCCR1A = 0;
    TCCR1B = _BV(CS12) | _BV(CS10);
    TIMSK1 = _BV(TOIE1);
    TCCR0A = _BV(WGM01);
    TCCR0B = _BV(CS01) | _BV(CS00); /* F_CPU / 64 = 250 kHz */
    OCR0A = 249;
    TIMSK0 = _BV(OCIE0A);
}

static uint32_t now_ticks(void)
{
    uint8_t sreg = SREG;
    cli();
    uint16_t low = TCNT1;
    uint16_t high = clock_high;
    if ((TIFR1 & _BV(TOV1)) && low < 0x8000) {
        high++;
    }
    SREG = sreg;
    return ((uint32_t)high << 16) | low;
}

/* -- state ------------------------------------------------------------------------------------- */

static uint8_t leds[LED_COUNT]; /* palette index | blink mode << 4 */
static uint8_t grb[LED_COUNT * 3];
static uint8_t brightness = DEFAULT_BRIGHTNESS;
static uint32_t slow_ticks, fast_ticks;
static uint8_t disconnected;
static uint32_t last_heard, next_heartbeat;
static uint8_t own_sequence;
static uint16_t dropped;
static uint8_t shown_phases = 0xFF;
static uint8_t used_modes; /* blink modes on the LEDs now: bit 0 slow, bit 1 fast */

static uint32_t ms_to_ticks(uint16_t ms)
{
    return ((uint32_t)ms * 125UL) / 8UL;
}

static uint8_t blink_phases(uint32_t now)
{
    uint8_t phases = 0;
    if (now % slow_ticks < slow_ticks / 2) {
        phases |= 1;
    }
    if (now % fast_ticks < fast_ticks / 2) {
        phases |= 2;
    }
    return phases;
}

static uint8_t led_state(uint16_t i)
{
    if (disconnected) {
        return (i % DISCONNECTED_EVERY == 0) ? (uint8_t)(DISCONNECTED_COLOUR | (BLINK_SLOW << 4)) : 0;
    }
    return leds[i];
}

static uint8_t is_lit(uint8_t mode, uint8_t phases)
{
    switch (mode) {
    case BLINK_SLOW:
        return phases & 1;
    case BLINK_SLOW_ALT:
        return !(phases & 1);
    case BLINK_FAST:
        return (phases & 2) != 0;
    case BLINK_FAST_ALT:
        return !(phases & 2);
    default:
        return 1;
    }
}

static void show(uint8_t phases)
{
    uint16_t scale = (uint16_t)brightness + 1;
    uint8_t *out = grb;
    uint8_t used = 0;
    for (uint16_t i = 0; i < LED_COUNT; i++) {
        uint8_t state = led_state(i);
        uint8_t index = state & 0x0F;
        uint8_t mode = state >> 4;
        if (mode == BLINK_SLOW || mode == BLINK_SLOW_ALT) {
            used |= 1;
        } else if (mode == BLINK_FAST || mode == BLINK_FAST_ALT) {
            used |= 2;
        }
        uint8_t r = 0, g = 0, b = 0;
        if (index != 0 && index < PALETTE_COUNT && is_lit(state >> 4, phases)) {
            r = (uint8_t)(((uint16_t)pgm_read_byte(&palette[index][0]) * scale) >> 8);
            g = (uint8_t)(((uint16_t)pgm_read_byte(&palette[index][1]) * scale) >> 8);
            b = (uint8_t)(((uint16_t)pgm_read_byte(&palette[index][2]) * scale) >> 8);
        }
        *out++ = g;
        *out++ = r;
        *out++ = b;
    }
    ws2812_send(grb, LED_COUNT * 3);
    _delay_us(WS2812_LATCH_US);
    shown_phases = phases;
    used_modes = used;
}

/* -- sending ----------------------------------------------------------------------------------- */

static void send_message(uint8_t type, uint8_t sequence, const uint8_t *payload, uint8_t len)
{
    uint8_t raw[2 + 8 + 3 * PALETTE_COUNT + 2];
    uint8_t encoded[sizeof raw + 2];
    raw[0] = type;
    raw[1] = sequence;
    for (uint8_t i = 0; i < len; i++) {
        raw[2 + i] = payload[i];
    }
    uint16_t crc = crc16(raw, (uint16_t)(2 + len));
    raw[2 + len] = (uint8_t)(crc >> 8);
    raw[3 + len] = (uint8_t)crc;
    uint16_t n = cobs_encode(raw, (uint16_t)(4 + len), encoded);
    for (uint16_t i = 0; i < n; i++) {
        uart_put(encoded[i]);
    }
    uart_put(0);
}

static void send_announce(uint8_t sequence)
{
    uint8_t payload[8 + 3 * PALETTE_COUNT];
    payload[0] = PROTOCOL_VERSION;
    payload[1] = FIRMWARE_VERSION_MAJOR;
    payload[2] = FIRMWARE_VERSION_MINOR;
    payload[3] = FIRMWARE_VERSION_PATCH;
    payload[4] = (uint8_t)(LED_COUNT >> 8);
    payload[5] = (uint8_t)LED_COUNT;
    payload[6] = CAP_BLINK | CAP_BRIGHTNESS | CAP_WATCHDOG | CAP_RGB;
    payload[7] = PALETTE_COUNT;
    for (uint8_t i = 0; i < 3 * PALETTE_COUNT; i++) {
        payload[8 + i] = pgm_read_byte(&palette[0][0] + i);
    }
    send_message(MSG_ANNOUNCE, sequence, payload, sizeof payload);
}

static void send_answer(uint8_t type, uint8_t sequence, uint8_t first, uint8_t second, uint8_t len)
{
    uint8_t payload[2] = {first, second};
    send_message(type, sequence, payload, len);
}

/* -- receiving --------------------------------------------------------------------------------- */

static uint8_t frame_buffer[MAX_ENCODED];
static uint16_t frame_length;
static uint8_t frame_overflow;

/* Handle one checked message; returns an error code, or 0 once it is applied and shown. */
static uint8_t apply(uint8_t type, const uint8_t *payload, uint16_t len, uint32_t now)
{
    switch (type) {
    case MSG_FRAME:
        if (len != LED_COUNT) {
            return ERR_BAD_LENGTH;
        }
        for (uint16_t i = 0; i < len; i++) {
            uint8_t byte = payload[i];
            if ((byte & 0x80) || (byte >> 4) > BLINK_FAST_ALT || (byte & 0x0F) >= PALETTE_COUNT) {
                return ERR_BAD_VALUE;
            }
        }
        for (uint16_t i = 0; i < len; i++) {
            leds[i] = payload[i];
        }
        break;
    case MSG_BRIGHTNESS:
        if (len != 1) {
            return ERR_BAD_LENGTH;
        }
        brightness = payload[0];
        break;
    case MSG_BLINK: {
        if (len != 4) {
            return ERR_BAD_LENGTH;
        }
        uint16_t slow = (uint16_t)((uint16_t)payload[0] << 8 | payload[1]);
        uint16_t fast = (uint16_t)((uint16_t)payload[2] << 8 | payload[3]);
        if (slow < MIN_PERIOD_MS || slow > MAX_PERIOD_MS || fast < MIN_PERIOD_MS || fast > MAX_PERIOD_MS) {
            return ERR_BAD_VALUE;
        }
        slow_ticks = ms_to_ticks(slow);
        fast_ticks = ms_to_ticks(fast);
        break;
    }
    default:
        return ERR_UNKNOWN_TYPE;
    }
    show(blink_phases(now));
    return 0;
}

static void handle_message(uint8_t *raw, int16_t payload_len)
{
    uint8_t type = raw[0];
    uint8_t sequence = raw[1];
    if (type & 0x80) {
        return; /* a device's message echoed back */
    }
    uint32_t now = now_ticks();
    last_heard = now;
    if (disconnected) {
        disconnected = 0;
        shown_phases = 0xFF; /* show the host's frame again */
    }
    if (type == MSG_HEARTBEAT) {
        return;
    }
    if (type == MSG_HELLO) {
        for (uint16_t i = 0; i < LED_COUNT; i++) {
            leds[i] = 0;
        }
        show(blink_phases(now));
        send_announce(sequence);
        return;
    }
    uint8_t error = apply(type, raw + 2, (uint16_t)payload_len, now);
    if (error) {
        send_answer(MSG_ERROR, sequence, error, type, 2);
    } else {
        send_answer(MSG_ACK, sequence, type, 0, 1);
    }
}

static void receive(uint8_t byte)
{
    if (byte != 0) {
        if (frame_length < sizeof frame_buffer) {
            frame_buffer[frame_length++] = byte;
        } else {
            frame_overflow = 1;
        }
        return;
    }
    if (frame_overflow) {
        dropped++;
    } else if (frame_length > 0) {
        int16_t raw_len = cobs_decode(frame_buffer, frame_length);
        int16_t payload_len = raw_len < 0 ? -1 : message_check(frame_buffer, raw_len);
        if (payload_len < 0) {
            dropped++;
        } else {
            handle_message(frame_buffer, payload_len);
        }
    }
    frame_length = 0;
    frame_overflow = 0;
}

/* -- the loop ---------------------------------------------------------------------------------- */

static void keep_time(void)
{
    uint32_t now = now_ticks();
    if (!disconnected && now - last_heard >= HEARTBEAT_TIMEOUT_TICKS) {
        disconnected = 1;
        shown_phases = 0xFF;
    }
    if ((int32_t)(now - next_heartbeat) >= 0) {
        next_heartbeat = now + HEARTBEAT_INTERVAL_TICKS;
        own_sequence++;
        uint8_t payload[3] = {disconnected, (uint8_t)(dropped >> 8), (uint8_t)dropped};
        send_message(MSG_DEVICE_HEARTBEAT, own_sequence, payload, sizeof payload);
    }
    uint8_t phases = blink_phases(now);
    if (shown_phases == 0xFF || ((phases ^ shown_phases) & used_modes)) {
        show(phases);
    }
}

int main(void)
{
    DDRD |= _BV(PD6);
    PORTD &= (uint8_t)~_BV(PD6);
    uart_init();
    clock_init();
    slow_ticks = ms_to_ticks(1000);
    fast_ticks = ms_to_ticks(250);
    set_sleep_mode(SLEEP_MODE_IDLE);
    sei();
    uint32_t now = now_ticks();
    last_heard = now;
    next_heartbeat = now + HEARTBEAT_INTERVAL_TICKS;
    show(blink_phases(now));
    send_announce(0);
    for (;;) {
        int16_t byte;
        while ((byte = uart_get()) >= 0) {
            receive((uint8_t)byte);
        }
        keep_time();
        cli();
        if (rx_head == rx_tail) {
            sleep_enable();
            sei();
            sleep_cpu();
            sleep_disable();
        }
        sei();
    }
}
