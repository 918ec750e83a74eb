import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GitServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The HTTP URL of the bare repository `<root>/<name>`. */
  repoUrl(name: string): string;
  /** Accept another token from now on (the old one then fails, as a revoked token would). */
  setToken(token: string): void;
  /** Requests answered so far, as `<status> <method> <path>`. */
  log(): string[];
  close(): Promise<void>;
}

const CGI_TIMEOUT_MS = 30_000;

/**
 * A real git smart-HTTP server on loopback: Node in front of `git http-backend` (a CGI), with HTTP
 * Basic auth checked against a token, the way a git host checks a personal access token. Every
 * request needs the token, reads included (a private repository). Bare repositories live in `root`.
 */
export async function startGitServer(options: { root: string; token: string; username?: string }): Promise<GitServer> {
  let token = options.token;
  const log: string[] = [];

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const done = (status: number) => log.push(`${status} ${req.method} ${url.pathname}`);
    const user = authorizedUser(req.headers.authorization, token, options.username);
    if (!user) {
      done(401);
      req.resume();
      res
        .writeHead(401, { 'www-authenticate': 'Basic realm="quire-test-git"', 'content-type': 'text/plain' })
        .end('authentication required\n');
      return;
    }
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: options.root,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_PROJECT_ROOT: options.root,
      GIT_HTTP_EXPORT_ALL: '1',
      PATH_INFO: decodeURIComponent(url.pathname),
      REQUEST_METHOD: req.method ?? 'GET',
      QUERY_STRING: url.search.slice(1),
      CONTENT_TYPE: req.headers['content-type'] ?? '',
      REMOTE_USER: user,
      REMOTE_ADDR: '127.0.0.1',
      GATEWAY_INTERFACE: 'CGI/1.1',
      SERVER_PROTOCOL: 'HTTP/1.1',
    };
    if (req.headers['content-length']) env.CONTENT_LENGTH = req.headers['content-length'];
    if (req.headers['content-encoding']) env.HTTP_CONTENT_ENCODING = req.headers['content-encoding'];
    if (req.headers['git-protocol']) env.HTTP_GIT_PROTOCOL = String(req.headers['git-protocol']);

    const child = spawn('git', ['http-backend'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), CGI_TIMEOUT_MS);
    child.once('exit', () => clearTimeout(timer));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('error', (error) => {
      if (!res.headersSent)
        res.writeHead(500, { 'content-type': 'text/plain' }).end(`git http-backend: ${error.message}\n`);
    });
    req.pipe(child.stdin);
    child.stdin.on('error', () => {});

    // The CGI answers with headers (and a `Status:` pseudo-header), a blank line, then the body.
    let head = Buffer.alloc(0);
    let headersDone = false;
    child.stdout.on('data', (chunk: Buffer) => {
      if (headersDone) {
        res.write(chunk);
        return;
      }
      head = Buffer.concat([head, chunk]);
      const end = head.indexOf('\r\n\r\n') >= 0 ? head.indexOf('\r\n\r\n') : head.indexOf('\n\n');
      if (end < 0) return;
      const separator = head.indexOf('\r\n\r\n') === end ? 4 : 2;
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.subarray(0, end).toString('latin1').split(/\r?\n/)) {
        const colon = line.indexOf(':');
        if (colon < 0) continue;
        const name = line.slice(0, colon).trim();
        const value = line.slice(colon + 1).trim();
        if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else headers[name] = value;
      }
      headersDone = true;
      done(status);
      res.writeHead(status, headers);
      res.write(head.subarray(end + separator));
    });
    child.stdout.once('end', () => {
      if (!headersDone) {
        done(502);
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`git http-backend gave no headers: ${stderr}\n`);
      } else {
        res.end();
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;

  return {
    origin,
    repoUrl: (name) => `${origin}/${name}`,
    setToken(next) {
      token = next;
    },
    log: () => [...log],
    close() {
      return new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}

/** The user name of a request whose Basic credentials carry the token, or null. */
function authorizedUser(header: string | undefined, token: string, username: string | undefined): string | null {
  const match = /^Basic\s+(\S+)$/i.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  const [user, password] = [decoded.slice(0, colon), decoded.slice(colon + 1)];
  if (password !== token || (username !== undefined && user !== username)) return null;
  return user || 'token';
}
