/* The LED protocol's framing: COBS, CRC-16/CCITT-FALSE, message types.
 * PROTOCOL.md (one folder up) is the reference; golden/messages.golden holds
 * byte-exact examples that test/test_golden.c and the Python tests both check. */
#ifndef CASCADE_PROTOCOL_H
#define CASCADE_PROTOCOL_H

#include <stdint.h>

#define PROTOCOL_VERSION 1
#define FIRMWARE_VERSION_MAJOR 1
#define FIRMWARE_VERSION_MINOR 0
#define FIRMWARE_VERSION_PATCH 0

#define MAX_LEDS 256
#define MAX_PAYLOAD 256
#define MAX_MESSAGE (2 + MAX_PAYLOAD + 2)
#define MAX_ENCODED (MAX_MESSAGE + (MAX_MESSAGE + 253) / 254)

enum message_type {
    MSG_HELLO = 0x01,
    MSG_FRAME = 0x02,
    MSG_BRIGHTNESS = 0x03,
    MSG_BLINK = 0x04,
    MSG_HEARTBEAT = 0x05,
    MSG_ANNOUNCE = 0x81,
    MSG_ACK = 0x82,
    MSG_ERROR = 0x83,
    MSG_DEVICE_HEARTBEAT = 0x85
};

enum error_code { ERR_UNKNOWN_TYPE = 1, ERR_BAD_LENGTH = 2, ERR_BAD_VALUE = 3 };

enum blink_mode { BLINK_STEADY = 0, BLINK_SLOW = 1, BLINK_SLOW_ALT = 2, BLINK_FAST = 3, BLINK_FAST_ALT = 4 };

#define CAP_BLINK 0x01
#define CAP_BRIGHTNESS 0x02
#define CAP_WATCHDOG 0x04
#define CAP_RGB 0x08

#define MIN_PERIOD_MS 20
#define MAX_PERIOD_MS 60000

/* CRC-16/CCITT-FALSE of len bytes, starting from 0xFFFF. */
uint16_t crc16(const uint8_t *data, uint16_t len);

/* COBS-encode len bytes into out (room for len + len / 254 + 1); returns the encoded length (no delimiter). */
uint16_t cobs_encode(const uint8_t *in, uint16_t len, uint8_t *out);

/* COBS-decode len bytes in place; returns the decoded length, or -1 if the bytes are not valid COBS. */
int16_t cobs_decode(uint8_t *buf, uint16_t len);

/* Check a decoded message (type, sequence, payload, CRC): returns the payload length, or -1 if the CRC is wrong
 * or the message is too short. */
int16_t message_check(const uint8_t *raw, int16_t len);

#endif
