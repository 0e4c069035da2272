/* A program for the simavr harness's own test: first 24 bits whose high time
 * is far outside the WS2812B tolerance (the harness must reject them), then,
 * after a reset gap, one LED through the real driver (the harness must show
 * it as red 12, green 34, blue 56). */
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/sleep.h>
#include <util/delay.h>

#include "ws2812.h"

int main(void)
{
    static const uint8_t grb[3] = {0x34, 0x12, 0x56};
    DDRD |= _BV(PD6);
    for (uint8_t bit = 0; bit < 24; bit++) {
        PORTD |= _BV(PD6);
        _delay_us(1.5); /* neither a 0 (0.4 us) nor a 1 (0.8 us) */
        PORTD &= (uint8_t)~_BV(PD6);
        _delay_us(0.85);
    }
    _delay_us(WS2812_LATCH_US);
    ws2812_send(grb, sizeof grb);
    _delay_us(WS2812_LATCH_US);
    set_sleep_mode(SLEEP_MODE_IDLE);
    sei();
    for (;;) {
        sleep_mode();
    }
}
