/*
 * paddock-relay: the inner end of a sandbox's broker channel on a remote Docker engine
 * (docs/decisions/0030-remote-workspace-and-broker-channel.md).
 *
 * Paddock starts it with `docker exec` (as a user of its own, never the agent's) and holds its stdin and stdout.
 * It listens on a Unix socket (argv[1], default /run/paddock/api/api.sock, mode 0666 in a directory the agent
 * cannot write) and carries every connection to it over stdin/stdout in frames:
 *
 *     [u32 connection id][u32 length][length bytes]      (big-endian)
 *
 * Relay -> Paddock: bytes a client sent; length 0: the client finished sending (EOF or error).
 * Paddock -> relay: bytes for the client; length 0: the connection is over (the relay closes it).
 *
 * It judges nothing: Paddock's API does, and counts each connection as this sandbox's. At most MAX_CONNS at once
 * (one more is closed at once); a frame longer than MAX_FRAME from Paddock ends the relay. When its stdin ends (the
 * channel is down) it removes its socket and exits: a hook then cannot connect and denies.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNS 16
#define MAX_FRAME 65536
/*
 * How long the relay stays silent towards Paddock at most: then it sends an empty frame for connection 0. Paddock's
 * connection to an engine over TLS reads with a timeout of a few seconds, so a channel that sends Paddock nothing
 * would otherwise be dropped. Counted from the last frame sent, not from the last wake-up: while a hook waits for a
 * person, Paddock's keep-alive spaces wake the relay twice a second and the client sends nothing.
 */
#define KEEPALIVE_MS 1000

struct conn {
    int fd;        /* -1: free */
    uint32_t id;
    int reading;   /* the client may still send */
};

static struct conn conns[MAX_CONNS];
static const char *sock_path = "/run/paddock/api/api.sock";
static unsigned char buf[MAX_FRAME];
static long long last_sent_ms; /* when the last frame to Paddock went out (monotonic) */

static long long now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long long) t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static int write_all(int fd, const void *p, size_t n) {
    const unsigned char *b = p;
    while (n > 0) {
        ssize_t w = write(fd, b, n);
        if (w < 0) {
            if (errno == EINTR) {
                continue;
            }
            return -1;
        }
        b += w;
        n -= (size_t) w;
    }
    return 0;
}

static int read_full(int fd, void *p, size_t n) {
    unsigned char *b = p;
    while (n > 0) {
        ssize_t r = read(fd, b, n);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            return -1;
        }
        b += r;
        n -= (size_t) r;
    }
    return 0;
}

static void put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char) (v >> 24);
    p[1] = (unsigned char) (v >> 16);
    p[2] = (unsigned char) (v >> 8);
    p[3] = (unsigned char) v;
}

static uint32_t get32(const unsigned char *p) {
    return ((uint32_t) p[0] << 24) | ((uint32_t) p[1] << 16) | ((uint32_t) p[2] << 8) | p[3];
}

/* One frame to Paddock; a failure means the channel is down. */
static void send_frame(uint32_t id, const unsigned char *data, uint32_t len) {
    unsigned char h[8];
    put32(h, id);
    put32(h + 4, len);
    if (write_all(1, h, 8) < 0 || (len > 0 && write_all(1, data, len) < 0)) {
        unlink(sock_path);
        _exit(0);
    }
    last_sent_ms = now_ms();
}

static void drop(struct conn *c) {
    close(c->fd);
    c->fd = -1;
}

static struct conn *find(uint32_t id) {
    for (int i = 0; i < MAX_CONNS; i++) {
        if (conns[i].fd >= 0 && conns[i].id == id) {
            return &conns[i];
        }
    }
    return NULL;
}

static void on_exit_signal(int sig) {
    (void) sig;
    unlink(sock_path);
    _exit(0);
}

int main(int argc, char **argv) {
    if (argc > 1) {
        sock_path = argv[1];
    }
    signal(SIGPIPE, SIG_IGN);
    signal(SIGTERM, on_exit_signal);
    signal(SIGINT, on_exit_signal);
    for (int i = 0; i < MAX_CONNS; i++) {
        conns[i].fd = -1;
    }
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(sock_path) >= sizeof addr.sun_path) {
        fprintf(stderr, "paddock-relay: socket path too long\n");
        return 1;
    }
    strcpy(addr.sun_path, sock_path);
    int lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (lfd < 0) {
        perror("paddock-relay: socket");
        return 1;
    }
    unlink(sock_path); /* an earlier relay's socket */
    if (bind(lfd, (struct sockaddr *) &addr, sizeof addr) < 0 || chmod(sock_path, 0666) < 0
        || listen(lfd, MAX_CONNS) < 0) {
        perror("paddock-relay: listen");
        return 1;
    }
    uint32_t next_id = 1;
    /* Tells Paddock the socket is there: a frame for connection 0, which is never a client's. */
    send_frame(0, (const unsigned char *) "ready", 5);
    for (;;) {
        struct pollfd fds[MAX_CONNS + 2];
        int idx[MAX_CONNS + 2];
        int n = 0;
        fds[n].fd = 0;
        fds[n].events = POLLIN;
        idx[n++] = -1;
        fds[n].fd = lfd;
        fds[n].events = POLLIN;
        idx[n++] = -2;
        for (int i = 0; i < MAX_CONNS; i++) {
            if (conns[i].fd >= 0 && conns[i].reading) {
                fds[n].fd = conns[i].fd;
                fds[n].events = POLLIN;
                idx[n++] = i;
            }
        }
        long long quiet_left = last_sent_ms + KEEPALIVE_MS - now_ms();
        if (quiet_left <= 0) {
            /* Nothing sent to Paddock for a while: an empty frame for connection 0 keeps the engine's connection
             * from timing out, however busy the other direction is. */
            send_frame(0, NULL, 0);
            quiet_left = KEEPALIVE_MS;
        }
        int ready = poll(fds, (nfds_t) n, (int) quiet_left);
        if (ready < 0) {
            if (errno == EINTR) {
                continue;
            }
            break;
        }
        if (ready == 0) {
            continue; /* the keep-alive goes out at the top of the loop */
        }
        for (int k = 0; k < n; k++) {
            if (fds[k].revents == 0) {
                continue;
            }
            if (idx[k] == -1) {
                unsigned char h[8];
                if (read_full(0, h, 8) < 0) {
                    goto done; /* the channel is down */
                }
                uint32_t id = get32(h), len = get32(h + 4);
                if (len > MAX_FRAME || (len > 0 && read_full(0, buf, len) < 0)) {
                    goto done;
                }
                struct conn *c = find(id);
                if (c == NULL) {
                    continue; /* already closed here */
                }
                if (len == 0 || write_all(c->fd, buf, len) < 0) {
                    if (len > 0) {
                        send_frame(id, NULL, 0);
                    }
                    drop(c);
                }
            } else if (idx[k] == -2) {
                int cfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
                if (cfd < 0) {
                    continue;
                }
                struct conn *slot = NULL;
                for (int i = 0; i < MAX_CONNS; i++) {
                    if (conns[i].fd < 0) {
                        slot = &conns[i];
                        break;
                    }
                }
                if (slot == NULL) {
                    close(cfd); /* a flood holds no more than MAX_CONNS */
                    continue;
                }
                /* A client that stops reading cannot hold the relay for long. */
                struct timeval tv = {.tv_sec = 5};
                setsockopt(cfd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
                slot->fd = cfd;
                slot->reading = 1;
                slot->id = next_id++;
                if (next_id == 0) {
                    next_id = 1;
                }
            } else {
                struct conn *c = &conns[idx[k]];
                if (c->fd < 0) {
                    continue;
                }
                ssize_t r = read(c->fd, buf, MAX_FRAME);
                if (r < 0 && errno == EINTR) {
                    continue;
                }
                if (r <= 0) {
                    c->reading = 0;
                    send_frame(c->id, NULL, 0);
                } else {
                    send_frame(c->id, buf, (uint32_t) r);
                }
            }
        }
    }
done:
    unlink(sock_path);
    return 0;
}
