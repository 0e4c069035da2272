/* simharness: the LED controller firmware running in simavr, for tests and the sim: device.
 *
 *   simharness FIRMWARE.elf LEDS
 *
 * Runs an ATmega328P at 16 MHz, paced to real time. The UART is bridged to a
 * pseudo-terminal by simavr's uart_pty part; its name is printed as the first
 * line, "PTY /dev/pts/N", so several harnesses can run side by side (the part
 * also points its own symlink /tmp/simavr-uart0 at the newest one; nothing
 * here relies on it). The
 * WS2812 data pin (PD6) is watched edge by edge: each bit's high and low times,
 * measured in simulated cycles, must be within the WS2812B datasheet's
 * tolerance (T0H 400 ns, T1H 800 ns, T0L 850 ns, T1L 450 ns, each +-150 ns);
 * when the line stays low for the reset time (50 us) the chain latches and the
 * harness prints what the LEDs show:
 *
 *   LEDS <cycle> <rrggbb for each LED, in chain order>
 *   BAD <cycle> <reason>        a bit outside the tolerance; that update is rejected
 *
 * Commands on standard input, one per line: "reset" (the reset button),
 * "sync N" (answered by "SYNC N" once every earlier line is out), "quit".
 * End of input also quits.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <avr_ioport.h>
#include <avr_uart.h>
#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_irq.h>
#include <uart_pty.h>

#define MAX_LEDS 256
#define FREQUENCY 16000000UL
#define NS_PER_CYCLE 62.5
#define T0H_NS 400.0
#define T1H_NS 800.0
#define T0L_NS 850.0
#define T1L_NS 450.0
#define TOLERANCE_NS 150.0
#define RESET_NS 50000.0

static avr_t *avr;
static uart_pty_t uart_pty;
static int led_count;

/* the chain as the WS2812 decoder sees it */
static uint8_t shown[MAX_LEDS][3];
static uint8_t incoming[MAX_LEDS * 3];
static uint32_t bit_count;
static int level;
static avr_cycle_count_t rise_at, fall_at;
static int last_bit = -1; /* the bit whose low time is running, -1 after a latch */
static int frame_bad;
static char bad_reason[160];

static struct timespec start_wall;
static FILE *out; /* our lines; simavr's own notices go to standard error */

static double ns(avr_cycle_count_t cycles)
{
    return (double)cycles * NS_PER_CYCLE;
}

static int within(double value, double nominal)
{
    return value >= nominal - TOLERANCE_NS && value <= nominal + TOLERANCE_NS;
}

static void reject(const char *fmt, double value)
{
    if (!frame_bad) {
        frame_bad = 1;
        snprintf(bad_reason, sizeof bad_reason, fmt, value, (unsigned)bit_count);
    }
}

static void publish(void)
{
    if (frame_bad) {
        fprintf(out, "BAD %llu %s\n", (unsigned long long)avr->cycle, bad_reason);
    } else if (bit_count % 24 != 0) {
        fprintf(out, "BAD %llu an update of %u bits is not a whole number of LEDs\n", (unsigned long long)avr->cycle,
               (unsigned)bit_count);
    } else {
        uint32_t complete = bit_count / 24;
        for (uint32_t i = 0; i < complete && i < (uint32_t)led_count; i++) {
            shown[i][0] = incoming[3 * i + 1]; /* the wire order is green, red, blue */
            shown[i][1] = incoming[3 * i];
            shown[i][2] = incoming[3 * i + 2];
        }
        fprintf(out, "LEDS %llu ", (unsigned long long)avr->cycle);
        for (int i = 0; i < led_count; i++) {
            fprintf(out, "%02x%02x%02x", shown[i][0], shown[i][1], shown[i][2]);
        }
        fprintf(out, "\n");
    }
    fflush(out);
    bit_count = 0;
    frame_bad = 0;
    last_bit = -1;
    memset(incoming, 0, sizeof incoming);
}

static avr_cycle_count_t latch(struct avr_t *a, avr_cycle_count_t when, void *param)
{
    (void)a;
    (void)when;
    (void)param;
    if (level == 0 && (bit_count > 0 || frame_bad)) {
        publish();
    }
    return 0;
}

static void data_pin(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    int now = value ? 1 : 0;
    if (now == level) {
        return;
    }
    level = now;
    if (now) {
        avr_cycle_timer_cancel(avr, latch, NULL);
        rise_at = avr->cycle;
        if (last_bit >= 0) {
            double low = ns(rise_at - fall_at);
            if (!within(low, last_bit ? T1L_NS : T0L_NS)) {
                reject("low time %.1f ns before bit %u is outside the tolerance", low);
            }
        }
        return;
    }
    fall_at = avr->cycle;
    double high = ns(fall_at - rise_at);
    int bit;
    if (within(high, T0H_NS)) {
        bit = 0;
    } else if (within(high, T1H_NS)) {
        bit = 1;
    } else {
        reject("high time %.1f ns of bit %u is neither a 0 nor a 1", high);
        bit = 0;
    }
    if (bit_count < (uint32_t)sizeof incoming * 8) {
        if (bit) {
            incoming[bit_count / 8] |= (uint8_t)(0x80 >> (bit_count % 8));
        }
    }
    bit_count++;
    last_bit = bit;
    avr_cycle_timer_register(avr, (avr_cycle_count_t)(RESET_NS / NS_PER_CYCLE), latch, NULL);
}

/* -- pacing and commands ------------------------------------------------------------------------ */

static double wall_elapsed_s(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)(now.tv_sec - start_wall.tv_sec) + (double)(now.tv_nsec - start_wall.tv_nsec) / 1e9;
}

static char command[256];
static size_t command_len;

static void run_command(const char *line)
{
    if (strcmp(line, "reset") == 0) {
        avr_reset(avr);
        level = 0;
        bit_count = 0;
        frame_bad = 0;
        last_bit = -1;
        avr_cycle_timer_cancel(avr, latch, NULL);
        /* the reset may restart the cycle count: pace from here, to the nanosecond (a start that is off by a
         * fraction of a second would stall the chip that long after every reset) */
        clock_gettime(CLOCK_MONOTONIC, &start_wall);
        long long start_ns = (long long)start_wall.tv_sec * 1000000000LL + start_wall.tv_nsec -
                             (long long)((double)avr->cycle * NS_PER_CYCLE);
        start_wall.tv_sec = (time_t)(start_ns / 1000000000LL);
        start_wall.tv_nsec = (long)(start_ns % 1000000000LL);
    } else if (strncmp(line, "sync ", 5) == 0) {
        /* every LED update printed so far comes before this answer */
        fprintf(out, "SYNC %s\n", line + 5);
        fflush(out);
    } else if (strcmp(line, "quit") == 0) {
        exit(0);
    } else if (line[0] != 0) {
        fprintf(stderr, "simharness: unknown command '%s' (reset, sync N, quit)\n", line);
    }
}

/* Wait until the wall clock catches up with the simulated time (at most timeout_ms), reading commands. */
static void pace(void)
{
    double ahead_s = (double)avr->cycle / FREQUENCY - wall_elapsed_s();
    int timeout_ms = ahead_s > 0.001 ? (int)(ahead_s * 1000.0) : 0;
    struct pollfd fd = {.fd = STDIN_FILENO, .events = POLLIN};
    int ready = poll(&fd, 1, timeout_ms);
    if (ready <= 0) {
        return;
    }
    char chunk[128];
    ssize_t n = read(STDIN_FILENO, chunk, sizeof chunk);
    if (n <= 0) {
        exit(0); /* the parent went away */
    }
    for (ssize_t i = 0; i < n; i++) {
        if (chunk[i] == '\n') {
            command[command_len] = 0;
            run_command(command);
            command_len = 0;
        } else if (command_len < sizeof command - 1) {
            command[command_len++] = chunk[i];
        }
    }
}

static void sleep_paced(avr_t *a, avr_cycle_count_t how_long)
{
    (void)a;
    (void)how_long;
    pace();
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: simharness FIRMWARE.elf LEDS\n");
        return 2;
    }
    led_count = atoi(argv[2]);
    if (led_count < 1 || led_count > MAX_LEDS) {
        fprintf(stderr, "simharness: LEDS must be 1..%d, not %s\n", MAX_LEDS, argv[2]);
        return 2;
    }
    /* simavr prints notices on standard output: send them to standard error, keep the real one for us */
    out = fdopen(dup(STDOUT_FILENO), "w");
    dup2(STDERR_FILENO, STDOUT_FILENO);
    if (out == NULL) {
        perror("simharness");
        return 2;
    }
    elf_firmware_t firmware;
    memset(&firmware, 0, sizeof firmware);
    if (elf_read_firmware(argv[1], &firmware) != 0) {
        fprintf(stderr, "simharness: cannot read the firmware %s (%s)\n", argv[1], strerror(errno));
        return 2;
    }
    avr = avr_make_mcu_by_name("atmega328p");
    if (avr == NULL) {
        fprintf(stderr, "simharness: this simavr does not know the atmega328p\n");
        return 2;
    }
    avr_init(avr);
    firmware.frequency = FREQUENCY;
    avr_load_firmware(avr, &firmware);
    avr->frequency = FREQUENCY;
    avr->sleep = sleep_paced;
    avr->log = 0;

    uart_pty_init(avr, &uart_pty);
    uart_pty_connect(&uart_pty, '0');
    fflush(stdout);
    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~(uint32_t)AVR_UART_FLAG_STDIO;
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);

    avr_irq_t *pin = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 6);
    avr_irq_register_notify(pin, data_pin, NULL);

    fprintf(out, "PTY %s\n", uart_pty.port[0].slavename);
    fflush(out);

    clock_gettime(CLOCK_MONOTONIC, &start_wall);
    for (unsigned long steps = 0;; steps++) {
        int state = avr_run(avr);
        if (state == cpu_Done || state == cpu_Crashed) {
            fprintf(stderr, "simharness: the firmware stopped (state %d)\n", state);
            return 1;
        }
        if ((steps & 0xFFF) == 0) {
            pace();
        }
    }
}
