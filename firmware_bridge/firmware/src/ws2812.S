; WS2812B driver for a 16 MHz AVR: every bit takes exactly 20 cycles (1.25 us).
;
;   bit 0: high  6 cycles (375 ns, datasheet 400 +-150), low 14 cycles (875 ns, 850 +-150)
;   bit 1: high 12 cycles (750 ns, datasheet 800 +-150), low  8 cycles (500 ns, 450 +-150)
;
; The next byte is fetched inside the last bit of the current one, so the gaps
; between bytes and between LEDs are the same as between bits. Interrupts are
; off while the bytes go out (at most 256 LEDs: 7.7 ms).
;
; void ws2812_send(const uint8_t *grb, uint16_t nbytes);   nbytes >= 1
; Pin: PORTD bit WS2812_BIT (Arduino D6 by default).

#include <avr/io.h>

#ifndef WS2812_BIT
#define WS2812_BIT 6
#endif

#define PORT _SFR_IO_ADDR(PORTD)
#define cur r18
#define next r19
#define bits r20
#define hi r21
#define lo r22
#define sreg r23

    .section .text
    .global ws2812_send
ws2812_send:
    movw r26, r24               ; X = the bytes
    movw r24, r22               ; r25:r24 = how many
    in sreg, _SFR_IO_ADDR(SREG)
    cli
    in lo, PORT
    andi lo, ~(1 << WS2812_BIT)
    mov hi, lo
    ori hi, (1 << WS2812_BIT)
    ld cur, X+
    ldi bits, 7
    ; cycle numbers are relative to the rising edge of the bit
bit_loop:
    out PORT, hi                ; 0
    rjmp .+0                    ; 1-2
    rjmp .+0                    ; 3-4
    sbrs cur, 7                 ; 5 (skips on a 1 bit: 5-6)
    out PORT, lo                ; 6: a 0 bit ends its high time
    lsl cur                     ; 7
    rjmp .+0                    ; 8-9
    rjmp .+0                    ; 10-11
    out PORT, lo                ; 12: a 1 bit ends its high time
    dec bits                    ; 13
    rjmp .+0                    ; 14-15
    rjmp .+0                    ; 16-17
    brne bit_loop               ; 18-19 when taken
    nop                         ; 19
last_bit:
    out PORT, hi                ; 0
    ld next, X+                 ; 1-2
    ldi bits, 7                 ; 3
    nop                         ; 4
    sbrs cur, 7                 ; 5
    out PORT, lo                ; 6
    mov cur, next               ; 7
    sbiw r24, 1                 ; 8-9
    rjmp .+0                    ; 10-11
    out PORT, lo                ; 12
    rjmp .+0                    ; 13-14
    rjmp .+0                    ; 15-16
    nop                         ; 17
    brne bit_loop               ; 18-19 when taken
    out _SFR_IO_ADDR(SREG), sreg
    ret
