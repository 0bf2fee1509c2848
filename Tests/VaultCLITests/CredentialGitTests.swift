import Foundation
import VaultTestSupport
import XCTest

@testable import VaultCLI
@testable import VaultFormat

/// `vault credential` and `git-credential-vault` (issue "The agent as the one key holder"):
/// the protocol answered byte for byte, and real git cloning and pushing over HTTP from a
/// loopback server that demands Basic auth (git-http-backend behind a small Python server).
final class CredentialGitTests: XCTestCase {
  var box: Sandbox!
  var server: Process?
  var port = 0

  override func setUp() {
    box = Sandbox()
    box.initPINOnly()
  }

  override func tearDown() {
    server?.terminate()
    server?.waitUntilExit()
    box = nil
  }

  /// `vault credential ACTION` with `request` on standard input and the PIN.
  func credential(_ action: String, _ request: String) -> Subprocess.Result {
    box.vaultPIN(["credential", action], stdin: Array(request.utf8))
  }

  func add(_ name: String, _ content: String) {
    let added = box.vaultPIN(["add", name], stdin: Array(content.utf8))
    XCTAssertEqual(added.status, 0, added.stderrText)
  }

  func testGetAnswersTheEntryWhoseURLServesTheRequest() {
    add(
      "forge/work",
      "s3cret\nusername: ada\nurl: https://git.example.org/team/app.git\n"
        + "password_expiry_utc: 1900000000\noauth_refresh_token: r-token\n")
    add("forge/any", "other\nusername: bob\nurl: https://git.example.org\n")
    let exact = credential(
      "get", "protocol=https\nhost=git.example.org\npath=team/app.git\n\n")
    XCTAssertEqual(exact.status, 0, exact.stderrText)
    XCTAssertEqual(
      exact.stdoutText,
      "username=ada\npassword=s3cret\npassword_expiry_utc=1900000000\n"
        + "oauth_refresh_token=r-token\n")
    // Without a path (no credential.useHttpPath), the entry for the whole host serves.
    XCTAssertEqual(
      credential("get", "protocol=https\nhost=git.example.org\n").stdoutText,
      "username=bob\npassword=other\n")
    // Another path of the host: the host's entry, never the other repository's.
    XCTAssertEqual(
      credential("get", "protocol=https\nhost=git.example.org\npath=team/web.git\n").stdoutText,
      "username=bob\npassword=other\n")
    // An https credential never goes to http, nor to another port or host.
    for request in [
      "protocol=http\nhost=git.example.org\n", "protocol=https\nhost=git.example.org:8443\n",
      "protocol=https\nhost=example.org\n",
    ] {
      let none = credential("get", request)
      XCTAssertEqual(none.status, 0, none.stderrText)
      XCTAssertEqual(none.stdout, [], request)
    }
  }

  func testAnEntryUnderTheFolderServesHTTPSAndAGuardedOneNever() {
    add("git/git.example.org", "folder-pw\nusername: cy\n")
    XCTAssertEqual(
      credential("get", "protocol=https\nhost=git.example.org\n").stdoutText,
      "username=cy\npassword=folder-pw\n")
    XCTAssertEqual(credential("get", "protocol=http\nhost=git.example.org\n").stdout, [])
    XCTAssertEqual(
      box.vault(["config", "--global", "credential.folder", "creds"]).status, 0)
    XCTAssertEqual(credential("get", "protocol=https\nhost=git.example.org\n").stdout, [])
    let guarded = box.vaultPIN(
      ["add", "--guard", "creds/git.example.org"], stdin: Array("g\nusername: g\n".utf8))
    XCTAssertEqual(guarded.status, 0, guarded.stderrText)
    XCTAssertEqual(credential("get", "protocol=https\nhost=git.example.org\n").stdout, [])
  }

  func testStoreUpdatesOrMakesAnEntryAndEraseRemovesOnlyTheNamedPassword() {
    let request = "protocol=https\nhost=git.example.org\npath=team/app.git\nusername=ada\n"
    XCTAssertEqual(credential("store", request + "password=first\n").status, 0)
    XCTAssertEqual(
      box.vaultPIN(["get", "git/git.example.org/team/app.git"]).stdoutText,
      "first\nusername: ada\nurl: https://git.example.org/team/app.git\n")
    XCTAssertEqual(credential("store", request + "password=second\n").status, 0)
    XCTAssertEqual(
      box.vaultPIN(["get", "git/git.example.org/team/app.git"]).stdoutText,
      "second\nusername: ada\nurl: https://git.example.org/team/app.git\n")
    XCTAssertEqual(
      box.vaultPIN(["history", "git/git.example.org/team/app.git"]).stdoutText.split(
        separator: "\n"
      ).count, 2, "the first password is kept as a revision")
    // Another password than the stored one: nothing is erased.
    XCTAssertEqual(credential("erase", request + "password=first\n").status, 0)
    XCTAssertEqual(
      box.vaultPIN(["get", "git/git.example.org/team/app.git"]).stdoutText,
      "second\nusername: ada\nurl: https://git.example.org/team/app.git\n")
    // The named one: the password line alone goes; fields stay, and git is answered nothing.
    XCTAssertEqual(credential("erase", request + "password=second\n").status, 0)
    XCTAssertEqual(
      box.vaultPIN(["get", "git/git.example.org/team/app.git"]).stdoutText,
      "\nusername: ada\nurl: https://git.example.org/team/app.git\n")
    XCTAssertEqual(credential("get", request).stdout, [])
  }

  /// New-user review: git stores after every request that worked, so a store of what the entry
  /// holds writes nothing; an update is a field change in the history; an entry that is not
  /// text, or too large to read, is passed over instead of failing every request.
  func testStoreOfWhatIsKeptWritesNothingAndUnreadableEntriesArePassedOver() throws {
    let request = "protocol=https\nhost=git.example.org\nusername=ada\n"
    XCTAssertEqual(credential("store", request + "password=first\n").status, 0)
    for _ in 0..<3 {
      XCTAssertEqual(credential("store", request + "password=first\n").status, 0)
    }
    XCTAssertEqual(credential("store", request + "password=second\n").status, 0)
    let history = box.vaultPIN(["history", "git/git.example.org", "--json"]).stdout
    let versions = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(history)) as? [[String: Any]])
    XCTAssertEqual(versions.map { $0["command"] as? String }, ["set", "add"])
    add("bin/blob", "\u{0}\u{1}binary")
    let large = box.home + "/large"
    try Data(repeating: 0x61, count: (1 << 20) + 10).write(to: URL(fileURLWithPath: large))
    XCTAssertEqual(
      box.shell("vault add big/file --pin-fd 3 3<<EOF < '\(large)'\n$PIN\nEOF").status, 0)
    let answer = credential("get", "protocol=https\nhost=git.example.org\n")
    XCTAssertEqual(answer.status, 0, answer.stderrText)
    XCTAssertEqual(answer.stdoutText, "username=ada\npassword=second\n")
  }

  /// Attack review: erase never takes an entry's other fields (a one-time code's seed, notes)
  /// with the password; a host spelled with a Unicode letter that folds to ASCII is another
  /// host; a url: field without a protocol serves nothing.
  func testEraseKeepsTheRestAndHostsAndURLsAreReadStrictly() {
    add(
      "web/shop",
      "pwShop\nusername: shopper\nurl: https://shop.example.com/\notp: otpauth://totp/x?secret=AB\n"
        + "remember this\n")
    let erased = credential(
      "erase", "protocol=https\nhost=shop.example.com\nusername=shopper\npassword=pwShop\n")
    XCTAssertEqual(erased.status, 0, erased.stderrText)
    XCTAssertEqual(
      box.vaultPIN(["get", "web/shop"]).stdoutText,
      "\nusername: shopper\nurl: https://shop.example.com/\notp: otpauth://totp/x?secret=AB\n"
        + "remember this\n")
    add("git/kernel.org", "kpw\nusername: k\n")
    XCTAssertEqual(credential("get", "protocol=https\nhost=\u{212A}ernel.org\n").stdout, [])
    XCTAssertEqual(
      credential("get", "protocol=https\nhost=KERNEL.org\n").stdoutText,
      "username=k\npassword=kpw\n")
    add("git/corp.example", "cpw\nurl: corp.example/team/repo.git\n")
    XCTAssertEqual(credential("get", "protocol=https\nhost=corp.example\n").stdout, [])
  }

  /// New-user review: the username git names chooses among accounts; a second account is
  /// stored beside the first; CRLF lines and a request that stops at its blank line are read
  /// as git writes them; a host that is not one is never stored; a url: value with spaces
  /// around it is read.
  func testAccountsLinesAndHostsAreReadAsGitMeansThem() {
    add("forge/one", "p1\nusername: one\nurl:   https://h.example.net  \n")
    add("forge/two", "p2\nusername: two\nurl: https://h.example.net\n")
    XCTAssertEqual(
      credential("get", "protocol=https\nhost=h.example.net\nusername=two\n").stdoutText,
      "username=two\npassword=p2\n")
    XCTAssertEqual(
      credential("get", "protocol=https\r\nhost=h.example.net\r\nusername=one\r\n\r\n").stdoutText,
      "username=one\npassword=p1\n")
    XCTAssertEqual(
      credential("get", "protocol=https\nhost=h.example.net\nusername=three\n").stdout, [])
    // Nothing after the blank line is read.
    XCTAssertEqual(
      credential("get", "protocol=https\nhost=h.example.net\nusername=one\n\nnot a line\n")
        .stdoutText, "username=one\npassword=p1\n")
    let store = "protocol=https\nhost=new.example.net\n"
    XCTAssertEqual(credential("store", store + "username=a\npassword=pa\n").status, 0)
    XCTAssertEqual(credential("store", store + "username=b\npassword=pb\n").status, 0)
    XCTAssertEqual(
      box.vaultPIN(["get", "git/new.example.net (b)"]).stdoutText,
      "pb\nusername: b\nurl: https://new.example.net\n")
    XCTAssertEqual(
      credential("get", store + "username=a\n").stdoutText, "username=a\npassword=pa\n")
    XCTAssertEqual(credential("store", "protocol=https\nhost=a/b\npassword=x\n").status, 0)
    XCTAssertEqual(box.vaultPIN(["get", "git/a/b"]).status, 3, "a host with a slash is none")
  }

  func testARequestThatIsNotTheProtocolIsRefused() {
    let bad = credential("get", "protocol https\n")
    XCTAssertEqual(bad.status, 5)
    XCTAssertEqual(bad.stdout, [])
    XCTAssertEqual(
      bad.errorLines, ["vault: error: git's request is not key=value lines: line 1 has no '='"])
  }

  // MARK: Real git over HTTP

  /// A loopback HTTP server for the bare repositories under `root`, which answers 401 unless
  /// the request carries Basic auth for `ada` with the password `passwords[repo]`, then runs
  /// `git http-backend` as a CGI; it logs each refusal in `root/auth.log`.
  static let httpServer = #"""
    import base64, http.server, json, os, subprocess, sys
    root, passwords, portfile = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *args): pass
        def do_GET(self): self.serve()
        def do_POST(self): self.serve()
        def serve(self):
            path, _, query = self.path.partition("?")
            repo = path.lstrip("/").split("/")[0]
            expected = "Basic " + base64.b64encode(("ada:" + passwords.get(repo, "")).encode()).decode()
            if self.headers.get("Authorization") != expected:
                with open(os.path.join(root, "auth.log"), "a") as log:
                    log.write("refused %s\n" % repo)
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="forge"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            env = dict(os.environ, GIT_PROJECT_ROOT=root, GIT_HTTP_EXPORT_ALL="1",
                PATH_INFO=path, QUERY_STRING=query, REQUEST_METHOD=self.command,
                CONTENT_TYPE=self.headers.get("Content-Type", ""), CONTENT_LENGTH=str(len(body)),
                REMOTE_USER="ada", REMOTE_ADDR="127.0.0.1",
                HTTP_GIT_PROTOCOL=self.headers.get("Git-Protocol", ""))
            out = subprocess.run(["git", "http-backend"], input=body, env=env,
                capture_output=True).stdout
            separator = b"\r\n\r\n" if b"\r\n\r\n" in out else b"\n\n"
            head, _, rest = out.partition(separator)
            status, headers = 200, []
            for line in head.replace(b"\r\n", b"\n").split(b"\n"):
                key, _, value = line.decode().partition(": ")
                if key.lower() == "status": status = int(value.split()[0])
                elif key: headers.append((key, value))
            self.send_response(status)
            for key, value in headers: self.send_header(key, value)
            self.send_header("Content-Length", str(len(rest)))
            self.end_headers()
            self.wfile.write(rest)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    with open(portfile, "w") as f: f.write(str(server.server_address[1]))
    server.serve_forever()
    """#

  var forge: String { box.home + "/forge" }

  /// Makes the bare repositories `a.git` and `b.git` and starts the server.
  func startForge(passwords: [String: String]) throws {
    try TestTier.requireSystem("real git over HTTP")
    for repo in ["a.git", "b.git"] {
      let made = git(["init", "-q", "--bare", forge + "/" + repo])
      XCTAssertEqual(made.status, 0, made.stderrText)
    }
    let script = box.home + "/forge.py"
    try Self.httpServer.write(toFile: script, atomically: true, encoding: .utf8)
    let json = String(decoding: try JSONEncoder().encode(passwords), as: UTF8.self)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = [script, forge, json, box.home + "/port"]
    process.environment = ["PATH": "/usr/bin:/bin"]
    try process.run()
    server = process
    for _ in 0..<300 where port == 0 {
      port = Int((try? String(contentsOfFile: box.home + "/port", encoding: .utf8)) ?? "") ?? 0
      if port == 0 { usleep(10_000) }
    }
    XCTAssertNotEqual(port, 0, "the server listens")
    // Git as a user sets it up: vault as the helper, never a prompt on a terminal.
    XCTAssertEqual(git(["config", "--global", "credential.helper", "vault"]).status, 0)
    XCTAssertEqual(git(["config", "--global", "user.email", "ada@example.org"]).status, 0)
    XCTAssertEqual(git(["config", "--global", "user.name", "Ada"]).status, 0)
  }

  /// Real git in the sandbox: its HOME, the built binaries first on PATH (so
  /// `git-credential-vault` is found), no terminal prompt; `askpass` answers git's prompts.
  func git(_ arguments: [String], askpass: String? = nil, in directory: String? = nil)
    -> Subprocess.Result
  {
    var environment = box.environment
    environment["PATH"] = Sandbox.binDirectory + ":/usr/bin:/bin"
    environment["GIT_TERMINAL_PROMPT"] = "0"
    environment["GIT_CONFIG_NOSYSTEM"] = "1"
    if let askpass { environment["GIT_ASKPASS"] = askpass }
    return Subprocess.run(
      "/usr/bin/git", arguments, environment: environment, directory: directory ?? box.home)
  }

  var refusals: [String] {
    ((try? String(contentsOfFile: forge + "/auth.log", encoding: .utf8)) ?? "")
      .split(separator: "\n").map(String.init)
  }

  func testGitClonesAndPushesWithAStoredCredential() throws {
    try startForge(passwords: ["a.git": "pw-a", "b.git": "pw-b"])
    XCTAssertEqual(box.vault(["unlock"], pin: [Sandbox.pin]).status, 0, "the agent serves git")
    add("forge/a", "pw-a\nusername: ada\nurl: http://127.0.0.1:\(port)\n")
    let clone = git(["clone", "-q", "http://127.0.0.1:\(port)/a.git", box.home + "/a"])
    XCTAssertEqual(clone.status, 0, clone.stderrText)
    let work = box.home + "/a"
    try Data("hello\n".utf8).write(to: URL(fileURLWithPath: work + "/README"))
    XCTAssertEqual(git(["add", "README"], in: work).status, 0)
    XCTAssertEqual(git(["commit", "-q", "-m", "first"], in: work).status, 0)
    let push = git(["push", "-q", "origin", "HEAD"], in: work)
    XCTAssertEqual(push.status, 0, push.stderrText)
    XCTAssertEqual(
      git(["--git-dir", forge + "/a.git", "log", "--format=%s"]).stdoutText, "first\n")
  }

  func testAWrongPasswordIsErasedAndTheNewOneStored() throws {
    try startForge(passwords: ["a.git": "right", "b.git": "unused"])
    XCTAssertEqual(box.vault(["unlock"], pin: [Sandbox.pin]).status, 0)
    add("forge/a", "wrong\nusername: ada\nurl: http://127.0.0.1:\(port)\n")
    let url = "http://127.0.0.1:\(port)/a.git"
    let refused = git(["clone", "-q", url, box.home + "/a1"])
    XCTAssertEqual(refused.status, 128, refused.stderrText)
    XCTAssertEqual(
      box.vault(["get", "forge/a"]).stdoutText,
      "\nusername: ada\nurl: http://127.0.0.1:\(port)\n", "git erased the wrong password")
    // Git asks (here a script answers), succeeds, and has vault keep what worked.
    let askpass = box.home + "/askpass"
    try Data(
      "#!/bin/sh\ncase \"$1\" in Username*) echo ada ;; *) echo right ;; esac\n".utf8
    ).write(to: URL(fileURLWithPath: askpass))
    chmod(askpass, 0o700)
    let asked = git(["clone", "-q", url, box.home + "/a2"], askpass: askpass)
    XCTAssertEqual(asked.status, 0, asked.stderrText)
    // The entry git's store found (the same URL and username) takes the new password.
    XCTAssertEqual(
      box.vault(["get", "forge/a"]).stdoutText,
      "right\nusername: ada\nurl: http://127.0.0.1:\(port)\n")
    // Now nothing asks: the stored one serves.
    let served = git(["clone", "-q", url, box.home + "/a3"], askpass: "/bin/false")
    XCTAssertEqual(served.status, 0, served.stderrText)
  }

  func testTwoRepositoriesOnOneHostAreToldApartByPath() throws {
    try startForge(passwords: ["a.git": "pw-a", "b.git": "pw-b"])
    XCTAssertEqual(git(["config", "--global", "credential.useHttpPath", "true"]).status, 0)
    XCTAssertEqual(box.vault(["unlock"], pin: [Sandbox.pin]).status, 0)
    add("forge/a", "pw-a\nusername: ada\nurl: http://127.0.0.1:\(port)/a.git\n")
    add("forge/b", "pw-b\nusername: ada\nurl: http://127.0.0.1:\(port)/b.git\n")
    for repo in ["a", "b"] {
      let clone = git(
        ["clone", "-q", "http://127.0.0.1:\(port)/\(repo).git", box.home + "/" + repo],
        askpass: "/bin/false")
      XCTAssertEqual(clone.status, 0, "\(repo): \(clone.stderrText)")
    }
    // Each clone was refused once (git asks only after a 401), never with the other's password.
    XCTAssertEqual(refusals.sorted(), ["refused a.git", "refused b.git"])
  }
}
