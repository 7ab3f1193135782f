// Linux's epoll for Swift: Glibc's module map leaves out <sys/epoll.h>. Elsewhere this header is empty (the server
// waits with poll, which every C library's module has).
#ifndef CEVENTPOLL_H
#define CEVENTPOLL_H

#ifdef __linux__
#include <sys/epoll.h>
#endif

#endif
