#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TestSupport
import XCTest

#if os(Linux)
// Glibc's module hides the pseudo-terminal calls behind `_XOPEN_SOURCE`; they are in the C library all the same.
private func libcFunction<Function>(_ name: String, as type: Function.Type) -> Function {
    guard let address = dlsym(dlopen(nil, RTLD_NOW), name) else { fatalError("\(name) not in the C library") }
    return unsafeBitCast(address, to: type)
}

private let posix_openpt = libcFunction("posix_openpt", as: (@convention(c) (Int32) -> Int32).self)
private let grantpt = libcFunction("grantpt", as: (@convention(c) (Int32) -> Int32).self)
private let unlockpt = libcFunction("unlockpt", as: (@convention(c) (Int32) -> Int32).self)
private let ptsname = libcFunction("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)
#endif

/// A pseudo-terminal for tests of `TerminalSession`: the test plays the terminal on the master side (types keys,
/// reads what was drawn, sets the window size) and the session runs on the slave side. Neither side becomes this
/// process's controlling terminal (`O_NOCTTY`), so tests run the same with or without one. On a machine that gives
/// no pseudo-terminal the test is skipped, or fails when `CI` is set (`Requirement.unmet`).
final class PseudoTerminal {
    /// The terminal's side: what is written here is typed, what the program writes is read here.
    let master: Int32
    /// The program's side, a terminal device.
    let slave: Int32
    /// The path of the slave device (`/dev/pts/N`).
    let slavePath: String
    private var masterClosed = false

    init() throws {
        master = posix_openpt(O_RDWR | O_NOCTTY)
        guard master >= 0 else {
            throw Requirement.unmet("no pseudo-terminal: posix_openpt failed (errno \(errno))")
        }
        guard grantpt(master) == 0, unlockpt(master) == 0, let name = ptsname(master) else {
            close(master)
            throw Requirement.unmet("no pseudo-terminal: grantpt/unlockpt/ptsname failed (errno \(errno))")
        }
        slavePath = String(cString: name)
        slave = open(slavePath, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            close(master)
            throw Requirement.unmet("no pseudo-terminal: cannot open \(slavePath) (errno \(errno))")
        }
        setSize(columns: 80, rows: 24)
    }

    deinit {
        close(slave)
        closeMaster()
    }

    /// Types `text` (its bytes, escape sequences included) into the terminal.
    func type(_ text: String) {
        type(Array(text.utf8))
    }

    func type(_ bytes: [UInt8]) {
        let written = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        XCTAssertEqual(written, bytes.count, "typed into the pseudo-terminal")
    }

    /// Everything the program wrote so far: reads until nothing more comes within 50 ms (a wait for bytes already
    /// written, not a timing assertion).
    func output() -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 50) == 1, entry.revents & Int16(POLLIN) != 0 else { break }
            let count = buffer.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += buffer[0..<count]
        }
        return bytes
    }

    /// Sets the window size the program reads with `TIOCGWINSZ`.
    func setSize(columns: Int, rows: Int) {
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        XCTAssertEqual(ioctl(master, UInt(TIOCSWINSZ), &size), 0)
    }

    /// Closes the terminal's side: the program's next read finds the terminal hung up.
    func closeMaster() {
        guard !masterClosed else { return }
        masterClosed = true
        close(master)
    }

    /// The slave's `termios`, as raw bytes to compare.
    func settingsBytes() -> [UInt8] {
        var value = termios()
        XCTAssertEqual(tcgetattr(slave, &value), 0)
        return withUnsafeBytes(of: value) { Array($0) }
    }

    /// Changes the slave's settings away from the defaults (no `ECHOK`, an odd `VMIN`, erase on Ctrl-H), so that a
    /// restore that wrote some fixed "sane" settings instead of the saved ones would be caught.
    func makeSettingsUnusual() {
        var value = termios()
        XCTAssertEqual(tcgetattr(slave, &value), 0)
        value.c_lflag &= ~tcflag_t(ECHOK)
        withUnsafeMutableBytes(of: &value.c_cc) { characters in
            characters[Int(VERASE)] = 0x08
            characters[Int(VMIN)] = 3
        }
        XCTAssertEqual(tcsetattr(slave, TCSANOW, &value), 0)
    }
}
