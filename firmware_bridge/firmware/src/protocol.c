/* COBS and CRC for the LED protocol; also compiled for the host by the golden test. */
#include "protocol.h"

#ifdef __AVR__
#include <util/crc16.h>
#endif

uint16_t crc16(const uint8_t *data, uint16_t len)
{
    uint16_t crc = 0xFFFF;
    for (uint16_t i = 0; i < len; i++) {
#ifdef __AVR__
        crc = _crc_xmodem_update(crc, data[i]);
#else
        crc ^= (uint16_t)data[i] << 8;
        for (uint8_t bit = 0; bit < 8; bit++) {
            crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
        }
#endif
    }
    return crc;
}

uint16_t cobs_encode(const uint8_t *in, uint16_t len, uint8_t *out)
{
    uint16_t code_at = 0;
    uint16_t o = 1;
    uint8_t code = 1;
    for (uint16_t i = 0; i < len; i++) {
        if (in[i] == 0) {
            out[code_at] = code;
            code_at = o++;
            code = 1;
            continue;
        }
        out[o++] = in[i];
        code++;
        if (code == 0xFF) {
            out[code_at] = code;
            code_at = o++;
            code = 1;
        }
    }
    out[code_at] = code;
    return o;
}

int16_t cobs_decode(uint8_t *buf, uint16_t len)
{
    uint16_t i = 0;
    uint16_t o = 0;
    while (i < len) {
        uint8_t code = buf[i];
        if (code == 0 || (uint16_t)(i + code) > len) {
            return -1;
        }
        i++;
        for (uint8_t k = 1; k < code; k++) {
            uint8_t byte = buf[i++];
            if (byte == 0) {
                return -1;
            }
            buf[o++] = byte;
        }
        if (code < 0xFF && i < len) {
            buf[o++] = 0;
        }
    }
    return (int16_t)o;
}

int16_t message_check(const uint8_t *raw, int16_t len)
{
    if (len < 4) {
        return -1;
    }
    uint16_t body = (uint16_t)(len - 2);
    uint16_t received = (uint16_t)((uint16_t)raw[body] << 8 | raw[body + 1]);
    if (crc16(raw, body) != received) {
        return -1;
    }
    return (int16_t)(len - 4);
}
