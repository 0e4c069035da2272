/* The firmware's framing (COBS, CRC) against the golden examples shared with the Python tests.
 *
 *   test_golden ../golden/messages.golden
 *
 * For every line: the CRC in the message is right, COBS-encoding the message
 * gives the wire bytes, and decoding the wire bytes gives the message back.
 * Prints one line per failure and exits 1 if there was any. */
#include <stdio.h>
#include <string.h>

#include "protocol.h"

#define MAX_HEX 2048

static int parse_hex(const char *hex, uint8_t *out, size_t room)
{
    size_t len = strlen(hex);
    if (len % 2 != 0 || len / 2 > room) {
        return -1;
    }
    for (size_t i = 0; i < len / 2; i++) {
        unsigned byte;
        if (sscanf(hex + 2 * i, "%2x", &byte) != 1) {
            return -1;
        }
        out[i] = (uint8_t)byte;
    }
    return (int)(len / 2);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_golden messages.golden\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "r");
    if (file == NULL) {
        perror(argv[1]);
        return 2;
    }
    static char line[4 * MAX_HEX];
    static char name[128], direction[16], raw_hex[MAX_HEX], wire_hex[MAX_HEX];
    static uint8_t raw[MAX_HEX / 2], wire[MAX_HEX / 2], encoded[MAX_HEX / 2], decoded[MAX_HEX / 2];
    int checked = 0, failed = 0;
    while (fgets(line, sizeof line, file) != NULL) {
        if (line[0] == '#' || line[0] == '\n') {
            continue;
        }
        if (sscanf(line, "%127s %15s %2047s %2047s", name, direction, raw_hex, wire_hex) != 4) {
            printf("FAIL malformed line: %s", line);
            failed++;
            continue;
        }
        int raw_len = parse_hex(raw_hex, raw, sizeof raw);
        int wire_len = parse_hex(wire_hex, wire, sizeof wire);
        if (raw_len < 4 || wire_len < 2 || wire[wire_len - 1] != 0) {
            printf("FAIL %s: bad hex or no delimiter\n", name);
            failed++;
            continue;
        }
        checked++;
        if (raw_len > MAX_MESSAGE || wire_len - 1 > MAX_ENCODED) {
            printf("FAIL %s: longer than the maximum frame\n", name);
            failed++;
        }
        if (message_check(raw, (int16_t)raw_len) != raw_len - 4) {
            printf("FAIL %s: CRC\n", name);
            failed++;
        }
        uint16_t n = cobs_encode(raw, (uint16_t)raw_len, encoded);
        if (n != (uint16_t)(wire_len - 1) || memcmp(encoded, wire, n) != 0) {
            printf("FAIL %s: COBS encoding differs from the wire bytes\n", name);
            failed++;
        }
        memcpy(decoded, wire, (size_t)wire_len - 1);
        int16_t m = cobs_decode(decoded, (uint16_t)(wire_len - 1));
        if (m != raw_len || memcmp(decoded, raw, (size_t)raw_len) != 0) {
            printf("FAIL %s: COBS decoding differs from the message\n", name);
            failed++;
        }
    }
    fclose(file);
    printf("%d golden messages checked, %d failures\n", checked, failed);
    return (failed == 0 && checked > 0) ? 0 : 1;
}
