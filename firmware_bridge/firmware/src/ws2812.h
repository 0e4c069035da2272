/* WS2812B output on PORTD bit WS2812_BIT (Arduino D6), cycle-exact at 16 MHz. */
#ifndef CASCADE_WS2812_H
#define CASCADE_WS2812_H

#include <stdint.h>

/* Send nbytes (>= 1) bytes in the LEDs' order (green, red, blue per LED); interrupts are off meanwhile.
 * The caller waits WS2812_LATCH_US afterwards before the LEDs take the new colours. */
void ws2812_send(const uint8_t *grb, uint16_t nbytes);

#define WS2812_LATCH_US 300

#endif
