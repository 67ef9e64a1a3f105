/*
 * paddock-hook-claude: Paddock's Claude Code PreToolUse hook as one small static program.
 *
 * It does what the shell script paddock-hook-claude.sh does (same protocol, same messages, same deadlines), with
 * one process start instead of three: bash, its watchdog and sha256sum. Paddock writes it to
 * <paddock home>/bin/paddock-hook-claude with its configuration (home, approval, answer and quiet seconds) put
 * into the CONFIG block below, and falls back to the script where no such program was built for the machine.
 * See docs/decisions/0017-native-hook-client.md.
 *
 * Fail-closed: whatever goes wrong, it prints a deny and exits 2; it never exits with another code, which Claude
 * Code would take as "go ahead". In time: connecting, sending and the broker's first answer must fit in answer_s
 * seconds (an alarm bounds them); while a person decides, the broker sends a space twice a second and the hook
 * denies after quiet_s seconds without one, or when its whole time (cap, below Claude Code's --timeout) is up.
 * Only the real Paddock: it never sends a key; it signs its request and believes only an answer carrying the
 * Paddock-Proof for its nonce and the address it dialled (formats: dev.paddock.api.HookAuth).
 *
 * Where: PADDOCK_API_SOCKET (a namespace or container sandbox's own Unix socket, relayed by Paddock to its API; the
 * address signed is then "unix"), else PADDOCK_API (127.0.0.1:PORT), else this home's instance.json. See
 * docs/decisions/0019-hook-channel-per-sandbox-socket.md.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "sha256.h"

/* Paddock replaces the bytes after the marker line with "home=...\napproval_s=N\nanswer_s=N\nquiet_s=N\n" and a
 * NUL when it writes the program (dev.paddock.approval.NativeHook). */
static volatile const char CONFIG[4096] = "PADDOCK-HOOK-CONFIG-V1\n";

#define MAX_INPUT (64L * 1024 * 1024)

static char home[4096];
static long approval_s = 600, answer_s = 10, quiet_s = 5, cap;
static struct timespec started;

/* What the alarm (and SIGTERM) prints: prepared before it is armed, written with write() alone. */
static char alarm_out[1024], alarm_err[512];
static size_t alarm_out_len, alarm_err_len;

static long elapsed_s(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long) (now.tv_sec - started.tv_sec) - (now.tv_nsec < started.tv_nsec ? 1 : 0);
}

static long elapsed_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (long) (now.tv_sec - started.tv_sec) * 1000 + (now.tv_nsec - started.tv_nsec) / 1000000;
}

static void write_all(int fd, const char *s, size_t n) {
    while (n > 0) {
        ssize_t w = write(fd, s, n);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return;
        }
        s += w;
        n -= (size_t) w;
    }
}

/* The deny Claude Code reads: its JSON on stdout (reason escaped), the reason on stderr. */
static size_t deny_json(char *out, size_t size, const char *reason) {
    static const char head[] = "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"deny\","
                               "\"permissionDecisionReason\":\"";
    size_t n = 0;
    for (const char *p = head; *p && n + 1 < size; p++) {
        out[n++] = *p;
    }
    for (const unsigned char *p = (const unsigned char *) reason; *p && n + 8 < size; p++) {
        if (*p == '"' || *p == '\\') {
            out[n++] = '\\';
            out[n++] = (char) *p;
        } else if (*p < 0x20) {
            n += (size_t) snprintf(out + n, size - n, "\\u%04x", *p);
        } else {
            out[n++] = (char) *p;
        }
    }
    const char *tail = "\"}}\n";
    for (const char *p = tail; *p && n + 1 < size; p++) {
        out[n++] = *p;
    }
    out[n] = 0;
    return n;
}

static void deny(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static void deny(const char *fmt, ...) {
    char reason[8192], out[20000];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(reason, sizeof reason, fmt, ap);
    va_end(ap);
    alarm(0);
    size_t n = deny_json(out, sizeof out, reason);
    write_all(1, out, n);
    size_t r = strlen(reason);
    reason[r] = '\n';
    write_all(2, reason, r + 1);
    _exit(2);
}

static void on_alarm(int sig) {
    (void) sig;
    write_all(1, alarm_out, alarm_out_len);
    write_all(2, alarm_err, alarm_err_len);
    _exit(2);
}

static const char *fault_json;

static void on_fault(int sig) {
    (void) sig;
    write_all(1, fault_json, strlen(fault_json));
    static const char msg[] = "Paddock hook: the hook failed or was stopped by a signal, so the call is denied\n";
    write_all(2, msg, sizeof msg - 1);
    _exit(2);
}

/* Arms the alarm (and SIGTERM) with the deny it prints when it fires. */
static void arm(long seconds, const char *reason) {
    alarm(0);
    alarm_out_len = deny_json(alarm_out, sizeof alarm_out, reason);
    alarm_err_len = (size_t) snprintf(alarm_err, sizeof alarm_err, "%s\n", reason);
    if (alarm_err_len >= sizeof alarm_err) {
        alarm_err_len = sizeof alarm_err - 1;
    }
    if (seconds <= 0) {
        on_alarm(SIGALRM);
    }
    alarm((unsigned) seconds);
}

static void read_config(void) {
    char c[sizeof CONFIG];
    for (size_t i = 0; i < sizeof c; i++) {
        c[i] = CONFIG[i];
    }
    c[sizeof c - 1] = 0;
    char *line = strchr(c, '\n');
    if (line == NULL || line[1] == 0) {
        deny("Paddock hook: this program was not written by Paddock (it has no configuration), so the call is denied");
    }
    for (line++; *line;) {
        char *end = strchr(line, '\n');
        if (end == NULL) {
            break;
        }
        *end = 0;
        if (strncmp(line, "home=", 5) == 0) {
            snprintf(home, sizeof home, "%s", line + 5);
        } else if (strncmp(line, "approval_s=", 11) == 0) {
            approval_s = atol(line + 11);
        } else if (strncmp(line, "answer_s=", 9) == 0) {
            answer_s = atol(line + 9);
        } else if (strncmp(line, "quiet_s=", 8) == 0) {
            quiet_s = atol(line + 8);
        }
        line = end + 1;
    }
    if (home[0] == 0 || quiet_s <= 0) {
        deny("Paddock hook: this program's configuration is incomplete, so the call is denied");
    }
}

/* The first line of a file (no newline), or an empty string. */
static void first_line(const char *path, char *out, size_t size) {
    out[0] = 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return;
    }
    ssize_t n = read(fd, out, size - 1);
    close(fd);
    if (n <= 0) {
        out[0] = 0;
        return;
    }
    out[n] = 0;
    char *nl = strchr(out, '\n');
    if (nl != NULL) {
        *nl = 0;
    }
}

/* The port of this home's running Paddock, from instance.json (which holds nothing secret), or 0. */
static long live_port(void) {
    char path[4200], inst[8192];
    snprintf(path, sizeof path, "%s/instance.json", home);
    first_line(path, inst, sizeof inst);
    char *p = strstr(inst, "\"port\"");
    if (p == NULL) {
        return 0;
    }
    p = strchr(p + 6, ':');
    if (p == NULL) {
        return 0;
    }
    for (p++; *p == ' '; p++) {
    }
    long port = 0;
    for (; *p >= '0' && *p <= '9' && port < 100000; p++) {
        port = port * 10 + (*p - '0');
    }
    return port;
}

/* The request being made. */
static char keyid[200], key[4096], path_q[300], hostport[64], nonce[33], mac[65], proof[65];
/* PADDOCK_API_SOCKET: the sandbox's API socket, dialled instead of 127.0.0.1 (hostport is then "unix"); where: what
 * the messages call the address dialled. */
static const char *unix_path;
static char where[200];
static long port;
static char *body;
static size_t body_len;
static long long ts;

static void hex(const uint8_t *in, size_t n, char *out) {
    static const char digits[] = "0123456789abcdef";
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[in[i] >> 4];
        out[2 * i + 1] = digits[in[i] & 15];
    }
    out[2 * n] = 0;
}

static void add(sha256_ctx *c, const char *s) {
    sha256_update(c, (const uint8_t *) s, strlen(s));
}

/* A fresh nonce, the request's MAC and the proof Paddock's answer must carry, for hostport. */
static void sign(void) {
    uint8_t r[16], d[32];
    size_t got = 0;
    while (got < sizeof r) {
        ssize_t n = getrandom(r + got, sizeof r - got, 0);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            deny("Paddock hook: cannot make a random nonce, so the call is denied");
        }
        got += (size_t) n;
    }
    hex(r, sizeof r, nonce);
    ts = (long long) time(NULL);
    char line[64];
    sha256_ctx c;
    sha256_init(&c);
    add(&c, "paddock-request-v1\n");
    add(&c, keyid);
    snprintf(line, sizeof line, "\n%lld\n", ts);
    add(&c, line);
    add(&c, nonce);
    add(&c, "\n");
    add(&c, hostport);
    add(&c, "\nPOST ");
    add(&c, path_q);
    add(&c, "\n");
    sha256_update(&c, (const uint8_t *) body, body_len);
    add(&c, "\n");
    add(&c, key);
    add(&c, "\n");
    sha256_final(&c, d);
    hex(d, sizeof d, mac);
    sha256_init(&c);
    add(&c, "paddock-answer-v1\n");
    add(&c, keyid);
    add(&c, "\n");
    add(&c, nonce);
    add(&c, "\n");
    add(&c, hostport);
    add(&c, "\n");
    add(&c, key);
    add(&c, "\n");
    sha256_final(&c, d);
    hex(d, sizeof d, proof);
}

/* A buffered reader over the connection; every read is bounded in time (poll) and length. */
static int sock = -1;
static char rbuf[8192];
static size_t rpos, rlen;

/* The next byte: 0..255, -1 at the end of the stream, -2 when wait_ms passed without one. */
static int next_byte(long wait_ms) {
    if (rpos < rlen) {
        return (unsigned char) rbuf[rpos++];
    }
    struct pollfd p = {.fd = sock, .events = POLLIN};
    int r;
    do {
        r = poll(&p, 1, (int) (wait_ms < 0 ? 0 : wait_ms));
    } while (r < 0 && errno == EINTR);
    if (r == 0) {
        return -2;
    }
    ssize_t n;
    do {
        n = read(sock, rbuf, sizeof rbuf);
    } while (n < 0 && errno == EINTR);
    if (n <= 0) {
        return -1;
    }
    rpos = 0;
    rlen = (size_t) n;
    return (unsigned char) rbuf[rpos++];
}

/* Up to max bytes of a line (without its newline): 1 when read, 0 at the end of the stream before any byte, -2 on
 * timeout. Like bash's read -n: a longer line comes back in pieces. */
static int read_line(char *out, size_t max, long wait_ms) {
    size_t n = 0;
    long until = elapsed_ms() + wait_ms;
    while (n < max) {
        int c = next_byte(until - elapsed_ms());
        if (c == -2) {
            return -2;
        }
        if (c == -1) {
            out[n] = 0;
            return n > 0 ? 1 : 0;
        }
        if (c == '\n') {
            break;
        }
        out[n++] = (char) c;
    }
    out[n] = 0;
    return 1;
}

static int code;
static char status_line[1100], got[4200], verdict[40], why[8400];
static char *out_line, *reason_line, *error_line;

/* Writes the request; stops early when the peer answers (or goes away) before it read all of it. */
static int send_request(void) {
    char head[8192];
    int hn = snprintf(head, sizeof head,
                      "POST %s HTTP/1.0\r\nHost: %s\r\nPaddock-Auth: v1 %s %lld %s %s\r\nContent-Type: application/json\r\n"
                      "Content-Length: %zu\r\n\r\n",
                      path_q, unix_path != NULL ? "localhost" : hostport, keyid, ts, nonce, mac, body_len);
    if (hn <= 0 || (size_t) hn >= sizeof head) {
        return -1;
    }
    const char *parts[2] = {head, body};
    size_t lens[2] = {(size_t) hn, body_len};
    for (int i = 0; i < 2; i++) {
        size_t off = 0;
        while (off < lens[i]) {
            struct pollfd p = {.fd = sock, .events = POLLOUT | POLLIN};
            if (poll(&p, 1, -1) < 0) {
                if (errno == EINTR) {
                    continue;
                }
                return -1;
            }
            if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
                return 0; /* it answers (or is gone) before reading everything: read what it says */
            }
            ssize_t w = send(sock, parts[i] + off, lens[i] - off, MSG_NOSIGNAL | MSG_DONTWAIT);
            if (w < 0 && (errno == EAGAIN || errno == EINTR)) {
                continue;
            }
            if (w < 0) {
                return off == 0 && i == 0 ? -1 : 0;
            }
            off += (size_t) w;
        }
    }
    return 0;
}

static void unproven(void) {
    if (code == 401) {
        snprintf(why, sizeof why,
                 "the server on %s refused this hook's key (HTTP 401): it is not this home's Paddock, or the key is wrong",
                 where);
    } else if (code > 0) {
        snprintf(why, sizeof why, "the server on %s did not prove it is this home's Paddock (HTTP %d)", where, code);
    } else {
        snprintf(why, sizeof why, "the server on %s did not prove it is this home's Paddock (HTTP no answer)", where);
    }
}

static long answer_left_ms(void) {
    return answer_s * 1000 - elapsed_ms();
}

/* One request to hostport. 0 with code, verdict and lines from a server that proved it is this home's Paddock; 1
 * with why when nothing there did; denies at once when time runs out. */
static int ask(void) {
    code = 0;
    got[0] = verdict[0] = 0;
    rpos = rlen = 0;
    if (sock >= 0) {
        close(sock);
    }
    int r;
    if (unix_path != NULL) {
        /* The sandbox's socket: a connect that blocks (a full backlog) is bounded by the alarm like any other. */
        sock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        struct sockaddr_un u = {.sun_family = AF_UNIX};
        snprintf(u.sun_path, sizeof u.sun_path, "%s", unix_path);
        do {
            r = sock >= 0 ? connect(sock, (struct sockaddr *) &u, sizeof u) : -1;
        } while (r < 0 && errno == EINTR);
    } else {
        sock = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t) port)};
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        do {
            r = sock >= 0 && port > 0 && port < 65536 ? connect(sock, (struct sockaddr *) &a, sizeof a) : -1;
        } while (r < 0 && errno == EINTR);
    }
    if (sock < 0 || r < 0 || send_request() < 0) {
        snprintf(why, sizeof why, "Paddock's broker cannot be reached at %s", where);
        return 1;
    }
    const char *late = "Paddock hook: Paddock's broker did not answer within %ld s, so the call is denied";
    if (read_line(status_line, 1024, answer_left_ms()) != 1) {
        deny(late, answer_s);
    }
    char *sp = strchr(status_line, ' ');
    code = sp != NULL ? atoi(sp + 1) : 0;
    char header[4200];
    for (int headers = 1;; headers++) {
        if (headers > 64) {
            deny("Paddock hook: the server on %s sent too many headers, so the call is denied", where);
        }
        if (read_line(header, 4096, answer_left_ms()) != 1) {
            deny(late, answer_s);
        }
        size_t n = strlen(header);
        if (n > 0 && header[n - 1] == '\r') {
            header[--n] = 0;
        }
        if (n == 0) {
            break;
        }
        if (strncasecmp(header, "paddock-proof:", 14) == 0) {
            const char *v = header + 14;
            if (*v == ' ') {
                v++;
            }
            snprintf(got, sizeof got, "%s", v);
        }
    }
    if (strcmp(got, proof) != 0) {
        unproven();
        return 1;
    }
    /* The real Paddock answers: from here the wait is bounded by its signs (quiet_s) and by cap. */
    alarm(0);
    static char lines[3][65537];
    out_line = lines[0];
    reason_line = lines[1];
    error_line = lines[2];
    out_line[0] = reason_line[0] = error_line[0] = 0;
    if (code == 200) {
        int c = ' ';
        while (c == ' ') {
            long t = cap - elapsed_s();
            if (t <= 0) {
                deny("Paddock hook: no decision within %ld s (Claude Code's hook timeout is near), so the call is denied",
                     cap);
            }
            if (t > quiet_s) {
                t = quiet_s;
            }
            c = next_byte(t * 1000);
            if (c == -2) {
                deny("Paddock hook: Paddock's broker gave no sign for %ld s while waiting, so the call is denied", t);
            }
            if (c == -1) {
                deny("Paddock hook: Paddock's broker closed the connection without an answer, so the call is denied");
            }
        }
        verdict[0] = (char) c;
        if (c == '\n') {
            verdict[0] = 0;
        } else {
            read_line(verdict + 1, 16, quiet_s * 1000);
        }
        read_line(out_line, 65536, quiet_s * 1000);
        read_line(reason_line, 65536, quiet_s * 1000);
    } else {
        read_line(error_line, 65536, quiet_s * 1000);
    }
    close(sock);
    sock = -1;
    return 0;
}

/* Reads the hook's input (bounded by the alarm and by MAX_INPUT). */
static void read_input(void) {
    size_t size = 65536;
    body = malloc(size);
    body_len = 0;
    for (;;) {
        if (body == NULL) {
            deny("Paddock hook: out of memory reading the PreToolUse input, so the call is denied");
        }
        if (body_len == size) {
            if (size >= (size_t) MAX_INPUT) {
                deny("Paddock hook: the PreToolUse input is larger than %ld MiB, so the call is denied", MAX_INPUT >> 20);
            }
            size *= 2;
            body = realloc(body, size);
            continue;
        }
        ssize_t n = read(0, body + body_len, size - body_len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        body_len += (size_t) n;
    }
}

static int all_digits(const char *s) {
    if (*s == 0) {
        return 0;
    }
    for (; *s; s++) {
        if (*s < '0' || *s > '9') {
            return 0;
        }
    }
    return 1;
}

int main(int argc, char **argv) {
    clock_gettime(CLOCK_MONOTONIC, &started);
    signal(SIGPIPE, SIG_IGN);
    read_config();

    const char *limit = NULL;
    if (argc > 1 && strcmp(argv[1], "--timeout") == 0) {
        limit = argc > 2 ? argv[2] : "";
    } else if (argc > 1 && strncmp(argv[1], "--timeout=", 10) == 0) {
        limit = argv[1] + 10;
    }
    if (limit != NULL && all_digits(limit) && strlen(limit) <= 8) {
        long l = atol(limit), margin = l / 4 <= 15 ? l / 4 : 15;
        cap = l - margin;
    } else {
        cap = approval_s + 30;
    }
    if (cap < 1) {
        cap = 1;
    }
    if (answer_s > cap) {
        answer_s = cap;
    }
    char late[200];
    snprintf(late, sizeof late, "Paddock hook: Paddock did not answer within %ld s, so the call is denied", answer_s);
    struct sigaction sa = {.sa_handler = on_alarm};
    sigemptyset(&sa.sa_mask);
    arm(answer_s + 1, late); /* the deny the handler prints, before the handler is there; re-armed below */
    sigaction(SIGALRM, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    arm(answer_s, late);
    /* A fault must not end the process by a signal: Claude Code would take that as "go ahead". */
    static char fault_out[600];
    deny_json(fault_out, sizeof fault_out, "Paddock hook: the hook failed or was stopped by a signal, so the call is denied");
    struct sigaction fa = {.sa_handler = on_fault};
    sigemptyset(&fa.sa_mask);
    fault_json = fault_out;
    sigaction(SIGSEGV, &fa, NULL);
    sigaction(SIGBUS, &fa, NULL);
    sigaction(SIGFPE, &fa, NULL);
    sigaction(SIGILL, &fa, NULL);
    sigaction(SIGABRT, &fa, NULL);
    /* Any other signal that would end the process ends it with a deny too (KILL cannot be caught). */
    static const int ending[] = {SIGINT, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGTRAP, SIGSYS, SIGXCPU, SIGXFSZ,
                                 SIGVTALRM, SIGPROF, SIGSTKFLT, SIGPWR};
    for (size_t i = 0; i < sizeof ending / sizeof ending[0]; i++) {
        sigaction(ending[i], &fa, NULL);
    }

    const char *api = getenv("PADDOCK_API");
    const char *sandbox = getenv("PADDOCK_SANDBOX_ID");
    unix_path = getenv("PADDOCK_API_SOCKET");
    if (unix_path != NULL && unix_path[0] == 0) {
        unix_path = NULL;
    }
    char api_buf[300];
    if (unix_path != NULL) {
        /* Inside a namespace or a container sandbox: its own socket, its own key, nothing else. */
        const char *k = getenv("PADDOCK_HOOK_KEY");
        if (k == NULL || k[0] == 0) {
            deny("Paddock hook: PADDOCK_API_SOCKET is set but PADDOCK_HOOK_KEY is not, so the call is denied");
        }
        if (sandbox == NULL || sandbox[0] == 0) {
            deny("Paddock hook: PADDOCK_API_SOCKET is set but PADDOCK_SANDBOX_ID is not, so the call is denied");
        }
        if (strlen(sandbox) > 64 || strspn(sandbox, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(sandbox)) {
            deny("Paddock hook: PADDOCK_SANDBOX_ID is not a sandbox id, so the call is denied");
        }
        if (unix_path[0] != '/' || strlen(unix_path) >= sizeof(((struct sockaddr_un *) 0)->sun_path)) {
            deny("Paddock hook: PADDOCK_API_SOCKET is not an absolute path of at most 107 bytes, so the call is denied");
        }
        snprintf(key, sizeof key, "%s", k);
        snprintf(keyid, sizeof keyid, "sandbox/%s", sandbox);
        snprintf(hostport, sizeof hostport, "unix");
        snprintf(where, sizeof where, "its sandbox's socket %.150s", unix_path);
        snprintf(path_q, sizeof path_q, "/v1/hooks/claude?sandbox=%s", sandbox);
    } else if (api != NULL && api[0] != 0) {
        const char *k = getenv("PADDOCK_HOOK_KEY");
        if (k == NULL || k[0] == 0) {
            deny("Paddock hook: PADDOCK_HOOK_KEY is not set, so this hook cannot tell Paddock from another program on "
                 "its port; the call is denied");
        }
        if (sandbox == NULL || sandbox[0] == 0) {
            deny("Paddock hook: PADDOCK_API is set but PADDOCK_SANDBOX_ID is not, so the call is denied");
        }
        if (strlen(sandbox) > 64 || strspn(sandbox, "abcdefghijklmnopqrstuvwxyz0123456789-") != strlen(sandbox)) {
            deny("Paddock hook: PADDOCK_SANDBOX_ID is not a sandbox id, so the call is denied");
        }
        snprintf(key, sizeof key, "%s", k);
        snprintf(keyid, sizeof keyid, "sandbox/%s", sandbox);
    } else {
        sandbox = NULL;
        long lp = live_port();
        if (lp <= 0) {
            deny("Paddock hook: no running Paddock found (PADDOCK_API is not set and the Paddock home has no "
                 "instance.json), so the call is denied");
        }
        snprintf(api_buf, sizeof api_buf, "http://127.0.0.1:%ld", lp);
        api = api_buf;
        char tokpath[4200];
        snprintf(tokpath, sizeof tokpath, "%s/api-token", home);
        first_line(tokpath, key, sizeof key);
        if (key[0] == 0) {
            deny("Paddock hook: the Paddock home's api-token cannot be read, so the call is denied");
        }
        snprintf(keyid, sizeof keyid, "install");
    }
    if (unix_path == NULL) {
        /* host and port of PADDOCK_API, as the script takes them apart */
        char hp[300];
        snprintf(hp, sizeof hp, "%s", strncmp(api, "http://", 7) == 0 ? api + 7 : api);
        char *slash = strchr(hp, '/');
        if (slash != NULL) {
            *slash = 0;
        }
        char *colon = strrchr(hp, ':');
        const char *host = hp, *port_s = hp;
        if (colon != NULL) {
            *colon = 0;
            port_s = colon + 1;
        }
        if (strcmp(host, "localhost") == 0) {
            host = "127.0.0.1";
        }
        if (strcmp(host, "127.0.0.1") != 0) {
            deny("Paddock hook: PADDOCK_API (%s) is not on 127.0.0.1, so the call is denied", api);
        }
        if (!all_digits(port_s) || strlen(port_s) > 9) {
            deny("Paddock hook: PADDOCK_API (%s) names no port, so the call is denied", api);
        }
        port = atol(port_s);
        snprintf(hostport, sizeof hostport, "127.0.0.1:%s", port_s);
        snprintf(path_q, sizeof path_q, "/v1/hooks/claude%s%s", sandbox != NULL ? "?sandbox=" : "",
                 sandbox != NULL ? sandbox : "");
        snprintf(where, sizeof where, "%s", hostport);
    }

    read_input();
    if (body_len == 0) {
        deny("Paddock hook: no PreToolUse input on stdin, so the call is denied");
    }

    sign();
    if (ask() != 0) {
        char first[8400];
        snprintf(first, sizeof first, "%s", why);
        /* An agent that outlived a restart of Paddock on another port: its PADDOCK_API is stale. This home's live
         * Paddock is asked instead, with the same key; it has to prove itself the same way. */
        long alt = unix_path == NULL && getenv("PADDOCK_API") != NULL && getenv("PADDOCK_API")[0] != 0 ? live_port() : 0;
        if (alt > 0 && alt != port) {
            port = alt;
            snprintf(hostport, sizeof hostport, "127.0.0.1:%ld", port);
            snprintf(where, sizeof where, "%s", hostport);
            sign();
            if (ask() != 0) {
                deny("Paddock hook: %s; and %s, so the call is denied", first, why);
            }
        } else {
            deny("Paddock hook: %s, so the call is denied", first);
        }
    }

    /* Only the verified Paddock's answer gets here. */
    if (code == 200 && strcmp(verdict, "allow") == 0) {
        if (strstr(out_line, "\"permissionDecision\":\"allow\"") == NULL
            && strstr(out_line, "\"behavior\":\"allow\"") == NULL
            && strstr(out_line, "{\"decision\":\"allow\"") == NULL) {
            deny("Paddock hook: Paddock's answer is not understood, so the call is denied");
        }
        printf("%s\n", out_line);
        return 0;
    }
    if (code == 200 && strcmp(verdict, "deny") == 0) {
        if (strstr(out_line, "\"permissionDecision\":\"deny\"") == NULL
            && strstr(out_line, "\"behavior\":\"deny\"") == NULL
            && strstr(out_line, "{\"decision\":\"deny\"") == NULL) {
            deny("Paddock hook: Paddock denied the call");
        }
        printf("%s\n", out_line);
        fflush(stdout);
        fprintf(stderr, "%s\n", reason_line);
        return 2;
    }
    if (code == 200) {
        deny("Paddock hook: Paddock's answer is not understood, so the call is denied");
    }
    if (code == 403) {
        deny("Paddock hook: this key may not ask for that sandbox (HTTP 403), so the call is denied");
    }
    char msg[600] = "";
    const char *e = strstr(error_line, "\"error\":\"");
    if (e != NULL) {
        snprintf(msg, sizeof msg, "%s", e + 9);
        msg[strcspn(msg, "\"\\")] = 0;
    }
    if (msg[0] != 0) {
        deny("Paddock hook: the broker answered HTTP %d (%s), so the call is denied", code, msg);
    }
    deny("Paddock hook: the broker answered HTTP %d, so the call is denied", code);
}
