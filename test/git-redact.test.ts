import { describe, expect, it } from 'vitest';
import { redactRemote } from '../src/git/redact.js';
import { unusableRemote } from '../src/git/remote.js';

// Issue 15: one redaction for every form a remote URL takes, applied to whole messages.
const FORMS: Array<[string, string]> = [
  ['https://x-access-token:ghp_secret@github.com/owner/site.git', 'https://github.com/owner/site.git'],
  ['http://user:secret@127.0.0.1:8080/site.git', 'http://127.0.0.1:8080/site.git'],
  ['https://token-only-secret@host.example/site.git', 'https://host.example/site.git'],
  ['https://user:p%40ss-secret@host.example/site.git', 'https://host.example/site.git'],
  ['https://user:at@in-secret@host.example/site.git', 'https://host.example/site.git'],
  ['ssh://deploy:ssh-secret@git.example.test/owner/site.git', 'ssh://git.example.test/owner/site.git'],
  ['ssh://git@git.example.test:2222/site.git', 'ssh://git.example.test:2222/site.git'],
  ['git+ssh://user:plus-secret@host.example/site.git', 'git+ssh://host.example/site.git'],
  ['deploy:scp-secret@git.example.test:owner/site.git', 'git.example.test:owner/site.git'],
  ['git@github.com:owner/site.git', 'github.com:owner/site.git'],
  ['https://host.example/site.git?access_token=query-secret', 'https://host.example/site.git?<redacted>'],
  [
    'https://host.example/site.git?a=1&private_token=query-secret#frag-secret',
    'https://host.example/site.git?<redacted>#<redacted>',
  ],
  ['https://host.example/site.git#frag-secret', 'https://host.example/site.git#<redacted>'],
  ['https://user:secret@host.example?token=query-secret', 'https://host.example?<redacted>'],
  ['https://host.example/owner/site.git', 'https://host.example/owner/site.git'],
  ['ftp://user:other-secret@host.example/site.git', 'ftp://host.example/site.git'],
];

describe('redactRemote', () => {
  it.each(FORMS)('%s → %s', (url, expected) => {
    expect(redactRemote(url)).toBe(expected);
  });

  it('redacts every URL inside a message and leaves the rest alone', () => {
    const message =
      `Could not reach (https://u:first-secret@a.example/x.git) nor "ssh://v:second-secret@b.example/y", ` +
      `then deploy:third-secret@c.example:z.git; HTTP 401 at https://d.example/?access_token=fourth-secret.`;
    const redacted = redactRemote(message);
    for (const secret of ['first-secret', 'second-secret', 'third-secret', 'fourth-secret'])
      expect(redacted).not.toContain(secret);
    expect(redacted).toBe(
      'Could not reach (https://a.example/x.git) nor "ssh://b.example/y", then c.example:z.git; HTTP 401 at https://d.example/?<redacted>',
    );
  });
});

describe('unusableRemote', () => {
  const withToken = <T>(token: string | undefined, task: () => T): T => {
    const saved = process.env.GIT_TOKEN;
    if (token === undefined) delete process.env.GIT_TOKEN;
    else process.env.GIT_TOKEN = token;
    try {
      return task();
    } finally {
      if (saved === undefined) delete process.env.GIT_TOKEN;
      else process.env.GIT_TOKEN = saved;
    }
  };

  it('refuses plain HTTP to another machine when a token would be sent, and never shows the secret', () => {
    withToken('env-secret', () => {
      expect(unusableRemote('http://git.example.test/site.git')).toMatch(
        /plain HTTP, so the token would cross the network unencrypted/,
      );
      expect(unusableRemote('http://192.0.2.10/site.git')).toMatch(/plain HTTP/);
    });
    withToken(undefined, () => {
      const message = unusableRemote('http://user:url-secret@git.example.test/site.git');
      expect(message).toMatch(/plain HTTP/);
      expect(message).not.toContain('url-secret');
    });
  });

  it('accepts plain HTTP without a token, to this machine, and HTTPS', () => {
    withToken(undefined, () => expect(unusableRemote('http://git.example.test/public.git')).toBeNull());
    withToken('env-secret', () => {
      for (const url of [
        'http://127.0.0.1:9418/site.git',
        'http://localhost/site.git',
        'http://[::1]:8080/site.git',
        'https://git.example.test/site.git',
      ]) {
        expect(unusableRemote(url), url).toBeNull();
      }
    });
  });

  it('names SSH remotes without their credentials', () => {
    const message = unusableRemote('ssh://deploy:ssh-secret@git.example.test/site.git');
    expect(message).toMatch(/uses SSH/);
    expect(message).not.toContain('ssh-secret');
  });
});
