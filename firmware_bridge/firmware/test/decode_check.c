/* The firmware's frame decoder, for a differential test against the Python decoder.
 *
 * Reads one frame per line on standard input (the bytes between two
 * delimiters, in hex) and prints, per line, "ok <message in hex>" when the
 * firmware would accept it (valid COBS, at least 4 bytes, right CRC, not
 * longer than the maximum) or "drop". */
#include <stdio.h>
#include <string.h>

#include "protocol.h"

#define MAX_LINE 8192

int main(void)
{
    static char line[MAX_LINE];
    static uint8_t frame[MAX_LINE / 2];
    while (fgets(line, sizeof line, stdin) != NULL) {
        size_t hex = strcspn(line, "\r\n");
        size_t len = hex / 2;
        for (size_t i = 0; i < len; i++) {
            unsigned byte = 0;
            sscanf(line + 2 * i, "%2x", &byte);
            frame[i] = (uint8_t)byte;
        }
        /* the firmware buffers at most MAX_ENCODED bytes and never stores a zero (it is the delimiter) */
        int16_t raw = -1;
        if (len > 0 && len <= MAX_ENCODED && memchr(frame, 0, len) == NULL) {
            raw = cobs_decode(frame, (uint16_t)len);
        }
        if (raw < 0 || message_check(frame, raw) < 0) {
            printf("drop\n");
            continue;
        }
        printf("ok ");
        for (int16_t i = 0; i < raw; i++) {
            printf("%02x", frame[i]);
        }
        printf("\n");
    }
    return 0;
}
