import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiClient, type ApiResponse, api } from '../support/http.js';
import { createSite, type RunningSite, type TestSite } from '../support/site.js';
import { countingClient } from './support/counting.js';
import { filesUnder, isTempFile, unparseableFiles } from './support/files.js';
import { STRESS, scale } from './support/mode.js';
import {
  applyCreate,
  applyTransition,
  applyUpdate,
  type Content,
  type ContentType,
  type CreateLocale,
  canonical,
  DEFAULT_LOCALE,
  expectedView,
  type Kind,
  type LocaleUpdate,
  type ModelItem,
  observedView,
} from './support/model.js';
import { Tally } from './support/tally.js';

// Item 1 of issue 8: concurrent writers against a production server.
//
// What "serial replay" means here. Each of the 16 clients owns the items it creates (its names and
// pathnames carry its number, so no two clients ever touch the same file, name or pathname), and a
// client waits for each answer before it sends its next operation. The acknowledged operations on
// one item are therefore totally ordered by the client that owns it, and operations on different
// items commute: replaying every client's acknowledged operations one after another, in any
// interleaving, must give exactly the state the server ends in. The clients still share everything
// else at once (the index, the per-item and naming locks, the write gate, the watcher echoes, the
// collections and sites, ID generation, batch), which is where a race would show. Contention on ONE
// item is covered separately, where the right answer does not depend on the interleaving: of 32
// writes carrying one etag exactly one wins, and etag-guarded increments of one shared counter by 16
// clients lose none.

const SECTION = '1 concurrency';
const SITES = {
  sites: { web: { locales: ['en', 'de', 'fr'], defaultLocale: 'en' } },
  globalLocales: ['en', 'de', 'fr'],
};
const LOCALES = ['en', 'de', 'fr'] as const;
const CLIENTS = 16;
/** Random operations per property run (all clients together). */
const OPERATIONS = scale(1000, 1000);
const PROPERTY_RUNS = scale(1, 5);
const RACE_ROUNDS = scale(8, 40);
const WRITERS = 32;
const INCREMENTS_PER_CLIENT = scale(6, 30);

let site: TestSite;
let server: RunningSite;

beforeAll(async () => {
  site = await createSite({
    name: 'rel-concurrency',
    config: '{ requireIdentity: false }',
    content: { 'sites.json': JSON.stringify(SITES) },
  });
  server = await site.buildAndStart();
});

afterAll(async () => {
  await server?.stop();
});

function contentFor(type: ContentType, value: number): Content {
  if (type === 'mdx') return { mdx: `# Heading ${value}\n\nSome *text* ${value}.\n` };
  if (type === 'json') return { data: { n: value, list: [value, `v${value}`], nested: { ok: value % 2 === 0 } } };
  return {
    visualData: {
      root: { props: { title: `T${value}` } },
      content: [{ type: 'Text', props: { text: `text ${value}` } }],
    },
  };
}

function expectOk(response: ApiResponse, label: string, statuses = [200, 201]): void {
  if (!statuses.includes(response.status))
    throw new Error(`${label}: expected ${statuses.join('/')}, got ${response.status} ${response.text.slice(0, 400)}`);
}

/** Compares the server's entry with the model; throws with both sides when they differ. */
function compare(item: ModelItem, entry: Record<string, unknown>, label: string): void {
  const expected = canonical(expectedView(item));
  const observed = canonical(observedView(entry));
  if (expected !== observed)
    throw new Error(
      `${label}: the server's ${item.id} differs from the serial replay\n  model:  ${expected}\n  server: ${observed}`,
    );
}

// ---------------------------------------------------------------------------------------------
// The random-operation property

type Op = 'create' | 'update' | 'delete' | 'batch' | 'transition' | 'move';
interface Command {
  op: Op;
  pick: number;
  variant: number;
  value: number;
}

const commandArb: fc.Arbitrary<Command> = fc.record({
  op: fc.oneof(
    { arbitrary: fc.constant<Op>('create'), weight: 3 },
    { arbitrary: fc.constant<Op>('update'), weight: 6 },
    { arbitrary: fc.constant<Op>('delete'), weight: 1 },
    { arbitrary: fc.constant<Op>('batch'), weight: 2 },
    { arbitrary: fc.constant<Op>('transition'), weight: 3 },
    { arbitrary: fc.constant<Op>('move'), weight: 2 },
  ),
  pick: fc.nat(9999),
  variant: fc.nat(1023),
  value: fc.nat(9999),
});

const programArb = (perClient: number) =>
  fc.array(fc.array(commandArb, { minLength: perClient, maxLength: perClient }), {
    minLength: CLIENTS,
    maxLength: CLIENTS,
  });

/** One client: owns what it creates, sends one operation at a time, keeps the model of its items. */
class OwnerClient {
  readonly items: ModelItem[] = [];
  readonly log: string[] = [];
  #counter = 0;

  constructor(
    private readonly http: ApiClient,
    private readonly run: number,
    private readonly number: number,
  ) {}

  get #prefix() {
    return `r${this.run}-c${this.number}`;
  }
  #fresh(letter: string) {
    return `${this.#prefix}-${letter}${this.#counter++}`;
  }
  #freshPathname() {
    return `/r${this.run}/c${this.number}/p${this.#counter++}`;
  }

  async runAll(commands: Command[]): Promise<void> {
    for (const command of commands) await this.#step(command);
  }

  async #step(command: Command): Promise<void> {
    if (this.items.length === 0 || command.op === 'create') return this.#create(command);
    const item = this.items[command.pick % this.items.length]!;
    switch (command.op) {
      case 'update':
        return this.#update(item, command);
      case 'delete':
        return this.#delete(item, command);
      case 'batch':
        return this.#batch(item, command);
      case 'transition':
        return this.#transition(item, command);
      case 'move':
        return this.#move(item, command);
      default:
        return this.#create(command);
    }
  }

  /** Reads the item, checks it against the model, and returns its etags by locale. */
  async #read(item: ModelItem): Promise<Record<string, string>> {
    const response = await this.http.get(`/content/${item.id}`);
    expectOk(response, `GET ${item.id}`, [200]);
    compare(
      item,
      response.json,
      `before operation ${this.log.length} of client ${this.number} (${this.log.slice(-3).join(' | ')})`,
    );
    return Object.fromEntries(
      Object.entries(response.json.locales as Record<string, { etag: string }>).map(([locale, record]) => [
        locale,
        record.etag,
      ]),
    );
  }

  async #create({ variant, value }: Command): Promise<void> {
    const kind = (['page', 'fragment', 'data'] as const)[variant % 3]!;
    const type: ContentType = kind === 'data' ? 'json' : (variant >> 2) % 2 ? 'mdx' : 'visual';
    const withSite = kind === 'page' || (kind === 'fragment' && (variant >> 6) % 2 === 1);
    const pathname = () => (kind === 'page' ? { pathname: this.#freshPathname() } : {});
    const locales: Record<string, CreateLocale> = {
      en: { ...pathname(), meta: { title: `T${value}`, n: value }, content: contentFor(type, value) },
    };
    const de = (variant >> 3) % 3;
    if (de === 1) locales.de = { ...pathname(), meta: { title: `DE ${value}` }, content: contentFor(type, value + 1) };
    if (de === 2) locales.de = { ...pathname(), meta: {}, inherit: true };
    if ((variant >> 5) % 2) locales.fr = { ...pathname(), meta: { title: 'FR' }, inherit: true };
    const name = kind === 'page' ? undefined : this.#fresh(kind[0]!);
    const collection = kind === 'page' ? 'pages' : kind === 'data' ? 'settings' : 'blocks';
    const body = { kind, ...(withSite && { site: 'web' }), collection, type, ...(name && { name }), locales };
    this.log.push(`create ${kind} ${name ?? locales.en!.pathname}`);
    const response = await this.http.post('/content', { body });
    expectOk(response, `create ${JSON.stringify(body).slice(0, 200)}`, [201]);
    const id: string = response.json.id;
    this.items.push(
      applyCreate({ id, kind: kind as Kind, type, ...(withSite && { site: 'web' }), collection }, locales, name),
    );
  }

  async #update(
    item: ModelItem,
    { pick, variant, value }: Command,
    forced?: Partial<LocaleUpdate> & { locale?: string },
  ): Promise<void> {
    const etags = await this.#read(item);
    const locale = forced?.locale ?? LOCALES[(pick >> 4) % LOCALES.length]!;
    const existing = item.locales.get(locale);
    const update: LocaleUpdate = {
      meta: {
        n: value,
        ...(variant & 1 && { title: `U${value}` }),
        description: variant & 2 ? null : `d${value}`,
        ...(variant & 4 && { tags: ['a', `t${value % 5}`] }),
      },
    };
    if (!existing && item.kind === 'page') update.pathname = this.#freshPathname();
    if (variant & 8) update.content = contentFor(item.type, value);
    if (!update.content && existing && locale !== DEFAULT_LOCALE && variant & 16) update.inherit = true;
    if (variant & 32) update.publishAt = variant & 64 ? null : `2031-0${1 + (value % 9)}-15T10:00:00Z`;
    if (item.kind !== 'page' && variant & 128) update.name = this.#fresh('n');
    if (item.kind === 'page' && existing && variant & 256) update.pathname = this.#freshPathname();
    Object.assign(update, forced);
    delete (update as { locale?: string }).locale;
    const method = value % 2 ? 'PUT' : 'PATCH';
    this.log.push(`${method} ${item.id} ${locale} ${JSON.stringify(update).slice(0, 120)}`);
    const response = await this.http.request(method, `/content/${item.id}`, {
      query: { locale, etag: existing ? etags[locale] : undefined },
      body: update,
    });
    expectOk(response, `${method} ${item.id} (${locale})`, [200]);
    applyUpdate(item, locale, update);
  }

  async #delete(item: ModelItem, { pick, variant }: Command): Promise<void> {
    const etags = await this.#read(item);
    const others = [...item.locales.keys()].filter((locale) => locale !== DEFAULT_LOCALE);
    if (others.length > 0 && variant % 2 === 0) {
      const locale = others[pick % others.length]!;
      this.log.push(`DELETE ${item.id} ${locale}`);
      const response = await this.http.delete(`/content/${item.id}`, {
        query: { locale },
        headers: { 'if-match': `"${etags[locale]}"` },
      });
      expectOk(response, `DELETE ${item.id} (${locale})`, [200]);
      item.locales.delete(locale);
      return;
    }
    this.log.push(`DELETE ${item.id}`);
    const response = await this.http.delete(`/content/${item.id}`, { headers: { 'if-match': etags[DEFAULT_LOCALE]! } });
    expectOk(response, `DELETE ${item.id}`, [200]);
    this.items.splice(this.items.indexOf(item), 1);
  }

  async #batch(first: ModelItem, { pick, variant, value }: Command): Promise<void> {
    const chosen = [first];
    for (const offset of [7, 13]) {
      const other = this.items[(pick + offset) % this.items.length]!;
      if (!chosen.includes(other)) chosen.push(other);
    }
    const operations = [];
    for (const [position, item] of chosen.entries()) {
      const etags = await this.#read(item);
      const locales = [...item.locales.keys()];
      const locale = locales[(pick + position) % locales.length]!;
      const data: LocaleUpdate = { meta: { batch: value, position } };
      if ((variant >> position) & 1) data.content = contentFor(item.type, value + position);
      operations.push({ item, locale, data, etag: etags[locale]! });
    }
    this.log.push(`batch ${operations.map((operation) => `${operation.item.id}/${operation.locale}`).join(',')}`);
    const response = await this.http.post('/content/batch', {
      body: { operations: operations.map(({ item, locale, data, etag }) => ({ id: item.id, locale, data, etag })) },
    });
    expectOk(response, 'batch', [200]);
    if (response.json.success !== true)
      throw new Error(`batch: not every operation succeeded: ${response.text.slice(0, 400)}`);
    for (const { item, locale, data } of operations) applyUpdate(item, locale, data);
  }

  async #transition(item: ModelItem, command: Command): Promise<void> {
    const others = [...item.locales.keys()].filter((locale) => locale !== DEFAULT_LOCALE);
    if (others.length === 0) return this.#update(item, command, { locale: LOCALES[1 + (command.pick % 2)] });
    const etags = await this.#read(item);
    const locale = others[command.pick % others.length]!;
    const state = item.locales.get(locale)!.inheritance!.state;
    const kind =
      state === 'inherited' ? (command.variant % 2 ? 'mark-reviewed' : 'break-inheritance') : 'revert-to-inherited';
    this.log.push(`${kind} ${item.id} ${locale}`);
    const response = await this.http.post(`/content/${item.id}/${kind}`, { query: { locale, etag: etags[locale] } });
    expectOk(response, `${kind} ${item.id} (${locale})`, [200]);
    applyTransition(item, locale, kind);
  }

  async #move(item: ModelItem, command: Command): Promise<void> {
    if (item.kind !== 'page') return this.#update(item, command, { locale: DEFAULT_LOCALE, name: this.#fresh('m') });
    const etags = await this.#read(item);
    const locales = [...item.locales.keys()];
    const locale = locales[command.pick % locales.length]!;
    const history = item.locales.get(locale)!.previousPathnames ?? [];
    // Now and then back to a pathname it had: it is free, and leaves the history.
    const pathname =
      command.variant & 4 && history.length > 0 ? history[command.value % history.length]! : this.#freshPathname();
    this.log.push(`move ${item.id} ${locale} → ${pathname}`);
    const response = await this.http.post('/web/move', {
      body: { id: item.id, locale, pathname, etag: etags[locale] },
    });
    expectOk(response, `move ${item.id} (${locale})`, [200]);
    applyUpdate(item, locale, { pathname });
  }
}

// ---------------------------------------------------------------------------------------------

describe('reliability: concurrency (production server)', () => {
  const models: ModelItem[] = [];

  it(`lets exactly one of ${WRITERS} concurrent writes carrying one etag win, whatever the kind of write`, async ({
    task,
  }) => {
    const tally = new Tally(SECTION, task.meta);
    const http = countingClient(api(server.url), tally, { load: true });
    for (let round = 0; round < RACE_ROUNDS; round++) {
      const locales: Record<string, CreateLocale> = {
        en: { pathname: `/race/${round}`, meta: { title: 'Race' }, content: contentFor('visual', round) },
        de: { pathname: `/race/${round}/de`, meta: { title: 'Rennen' }, inherit: true },
      };
      const created = await http.post('/content', {
        body: { kind: 'page', site: 'web', collection: 'races', type: 'visual', locales },
      });
      expect(created.status, created.text).toBe(201);
      const item = applyCreate(
        { id: created.json.id, kind: 'page', type: 'visual', site: 'web', collection: 'races' },
        locales,
      );
      // The German locale goes stale first, so that every contender changes it (an etag is a hash of
      // the state: a write that changes nothing, such as marking a current locale reviewed, keeps
      // the etag, and a second writer holding it would rightly win too).
      const edited = await http.put(`/content/${item.id}`, {
        query: { locale: 'en' },
        body: { content: contentFor('visual', round + 500) },
      });
      expect(edited.status, edited.text).toBe(200);
      applyUpdate(item, 'en', { content: contentFor('visual', round + 500) });
      const etag: string = (await http.get(`/content/${item.id}/de`)).json.localized.etag;

      // Round 0: 32 plain PUTs. Later rounds: every kind of write at once, all with the same etag.
      type Contender = {
        label: string;
        send: () => Promise<ApiResponse>;
        won: (response: ApiResponse) => boolean;
        lost: (response: ApiResponse) => boolean;
        apply: () => void;
      };
      const plain = (i: number): Contender => ({
        label: `PUT ${i}`,
        send: () => http.put(`/content/${item.id}`, { query: { locale: 'de', etag }, body: { meta: { writer: i } } }),
        won: (r) => r.status === 200,
        lost: (r) => r.status === 412 && r.json?.error?.code === 'STALE_WRITE',
        apply: () => applyUpdate(item, 'de', { meta: { writer: i } }),
      });
      // A full PUT (it carries a pathname): after a DELETE won, it must not bring the locale back.
      const full = (i: number): Contender => ({
        label: `PUT with pathname ${i}`,
        send: () =>
          http.put(`/content/${item.id}`, {
            query: { locale: 'de', etag },
            body: { pathname: `/race/${round}/put-${i}`, meta: { writer: i } },
          }),
        won: (r) => r.status === 200,
        lost: (r) => r.status === 412 && r.json?.error?.code === 'STALE_WRITE',
        apply: () => applyUpdate(item, 'de', { pathname: `/race/${round}/put-${i}`, meta: { writer: i } }),
      });
      const kinds = (i: number): Contender => {
        const stale = (r: ApiResponse) => r.status === 412 && r.json?.error?.code === 'STALE_WRITE';
        switch (i % 8) {
          case 1:
            return {
              label: `PATCH content ${i}`,
              send: () =>
                http.patch(`/content/${item.id}`, {
                  query: { locale: 'de', etag: `"${etag}"` },
                  body: { content: contentFor('visual', 1000 + i) },
                }),
              won: (r) => r.status === 200,
              lost: stale,
              apply: () => applyUpdate(item, 'de', { content: contentFor('visual', 1000 + i) }),
            };
          case 2:
            return {
              label: `DELETE de ${i}`,
              send: () =>
                http.delete(`/content/${item.id}`, { query: { locale: 'de' }, headers: { 'if-match': `"${etag}"` } }),
              won: (r) => r.status === 200,
              lost: stale,
              apply: () => {
                item.locales.delete('de');
              },
            };
          case 3:
            return {
              label: `mark-reviewed ${i}`,
              send: () => http.post(`/content/${item.id}/mark-reviewed`, { query: { locale: 'de', etag } }),
              won: (r) => r.status === 200,
              lost: stale,
              apply: () => applyTransition(item, 'de', 'mark-reviewed'),
            };
          case 4:
            return {
              label: `break-inheritance ${i}`,
              send: () => http.post(`/content/${item.id}/break-inheritance`, { query: { locale: 'de', etag } }),
              won: (r) => r.status === 200,
              lost: stale,
              apply: () => applyTransition(item, 'de', 'break-inheritance'),
            };
          case 5:
            return {
              label: `move ${i}`,
              send: () =>
                http.post('/web/move', {
                  body: { id: item.id, locale: 'de', pathname: `/race/${round}/moved-${i}`, etag },
                }),
              won: (r) => r.status === 200,
              lost: stale,
              apply: () => applyUpdate(item, 'de', { pathname: `/race/${round}/moved-${i}` }),
            };
          case 6:
            return {
              label: `batch ${i}`,
              send: () =>
                http.post('/content/batch', {
                  body: { operations: [{ id: item.id, locale: 'de', data: { meta: { batch: i } }, etag }] },
                }),
              won: (r) => r.status === 200 && r.json?.operations?.[0]?.updated === true,
              lost: (r) => r.status === 207 && r.json?.operations?.[0]?.error?.code === 'STALE_WRITE',
              apply: () => applyUpdate(item, 'de', { meta: { batch: i } }),
            };
          case 7:
            return {
              label: `PUT publishAt ${i}`,
              send: () =>
                http.put(`/content/${item.id}`, {
                  query: { locale: 'de', etag },
                  body: { publishAt: `2030-01-01T00:00:${String(i).padStart(2, '0')}Z` },
                }),
              won: (r) => r.status === 200,
              lost: stale,
              apply: () => applyUpdate(item, 'de', { publishAt: `2030-01-01T00:00:${String(i).padStart(2, '0')}Z` }),
            };
          default:
            return full(i);
        }
      };
      const contenders = Array.from({ length: WRITERS }, (_, i) => (round === 0 ? plain(i) : kinds(i)));
      const responses = await Promise.all(contenders.map((contender) => contender.send()));
      const winners = contenders.filter((contender, i) => contender.won(responses[i]!));
      // When the DELETE of the locale won, a transition or move of it may also answer 404 (no such locale).
      const deleted = winners.some((winner) => winner.label.startsWith('DELETE'));
      const gone = (r: ApiResponse) =>
        deleted && (r.json?.error?.code ?? r.json?.operations?.[0]?.error?.code) === 'CONTENT_NOT_FOUND';
      const odd = contenders
        .map((contender, i) => ({ contender, response: responses[i]! }))
        .filter(({ contender, response }) => !contender.won(response) && !contender.lost(response) && !gone(response))
        .map(({ contender, response }) => `${contender.label}: ${response.status} ${response.text.slice(0, 200)}`);
      expect(odd, `round ${round}: answers other than a win or 412 STALE_WRITE`).toEqual([]);
      expect(
        winners.length,
        `round ${round}: the winners were ${winners.map((winner) => winner.label).join(', ') || 'none'}`,
      ).toBe(1);
      winners[0]!.apply();
      const after = await http.get(`/content/${item.id}`);
      try {
        compare(item, after.json, `round ${round}, after the race won by ${winners[0]!.label}`);
      } catch (error) {
        tally.add('writesLost');
        throw error;
      }
      models.push(item);
    }
  });

  it('loses no increment when 16 clients update one shared counter with etag-guarded retries', async ({ task }) => {
    const tally = new Tally(SECTION, task.meta);
    const http = countingClient(api(server.url), tally, { load: true });
    const created = await http.post('/content', {
      body: {
        kind: 'data',
        collection: 'counters',
        type: 'json',
        name: 'shared-counter',
        locales: { en: { meta: { count: 0 }, content: { data: {} } } },
      },
    });
    expect(created.status, created.text).toBe(201);
    const id: string = created.json.id;
    let acknowledged = 0;
    const increment = async (client: number) => {
      for (let attempt = 0; attempt < 500; attempt++) {
        const current = await http.get(`/content/${id}/en`);
        expect(current.status).toBe(200);
        const count: number = current.json.localized.meta.count;
        const written = await http.put(`/content/${id}`, {
          query: { locale: 'en', etag: current.headers.get('etag') ?? '' },
          body: { meta: { count: count + 1, [`last-${client}`]: count + 1 } },
        });
        if (written.status === 200) {
          acknowledged++;
          return;
        }
        expect(written.status, written.text).toBe(412);
      }
      throw new Error(`client ${client} could not increment in 500 attempts`);
    };
    await Promise.all(
      Array.from({ length: CLIENTS }, async (_, client) => {
        for (let n = 0; n < INCREMENTS_PER_CLIENT; n++) await increment(client);
      }),
    );
    const final = await http.get(`/content/${id}/en`);
    tally.add('writesLost', Math.max(0, acknowledged - final.json.localized.meta.count));
    expect(final.json.localized.meta.count).toBe(acknowledged);
    expect(acknowledged).toBe(CLIENTS * INCREMENTS_PER_CLIENT);
  });

  it(`ends every run of ${OPERATIONS} random operations by ${CLIENTS} clients in the state of a serial replay (fast-check)`, {
    timeout: scale(240_000, 1_800_000),
  }, async ({ task }) => {
    const tally = new Tally(SECTION, task.meta);
    const http = countingClient(api(server.url), tally, { load: true });
    const seed = process.env.QUIRE_SEED
      ? Number(process.env.QUIRE_SEED)
      : (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
    let run = 0;
    const property = fc.asyncProperty(programArb(Math.ceil(OPERATIONS / CLIENTS)), async (program) => {
      const current = run++;
      const clients = program.map((_, number) => new OwnerClient(http, current, number));
      const outcomes = await Promise.allSettled(clients.map((client, number) => client.runAll(program[number]!)));
      const failures = outcomes.flatMap((outcome, number) =>
        outcome.status === 'rejected'
          ? [
              `client ${number}: ${(outcome.reason as Error).message}\n    last operations: ${clients[number]!.log.slice(-5).join(' | ')}`,
            ]
          : [],
      );
      if (failures.length > 0) {
        tally.add(
          'writesLost',
          failures.filter((failure) => failure.includes('differs from the serial replay')).length,
        );
        throw new Error(failures.join('\n'));
      }
      // The final state: every item of this run, and nothing else under its prefix.
      const live = clients.flatMap((client) => client.items);
      const listed = await http.get('/content');
      expect(listed.status).toBe(200);
      const ids = (listed.json.items as Array<{ id: string }>)
        .map((item) => item.id)
        .filter((id) => id.startsWith(`r${current}-`))
        .sort();
      expect(ids, 'the items listed are the items the replay leaves').toEqual(live.map((item) => item.id).sort());
      for (const item of live) {
        const entry = await http.get(`/content/${item.id}`);
        try {
          compare(item, entry.json, `final state of run ${current}`);
        } catch (error) {
          tally.add('writesLost');
          throw error;
        }
      }
      models.push(...live);
    });
    try {
      await fc.assert(property, { seed, numRuns: PROPERTY_RUNS, endOnFailure: true });
    } catch (error) {
      // The seed replays the same operations; the interleaving of a real server cannot be replayed.
      console.error(
        `[reliability] the concurrency property failed with seed ${seed}: rerun with QUIRE_SEED=${seed}${STRESS ? ' (stress mode)' : ''}`,
      );
      throw error;
    }
  });

  it('keeps every acknowledged write across a restart, with identical etags, whole files and no temp files', async ({
    task,
  }) => {
    const tally = new Tally(SECTION, task.meta);
    const http = () => countingClient(api(server.url), tally);
    const before = await http().get('/content');
    await server.stop();
    server = await site.startBuilt();
    const after = await http().get('/content');
    expect(after.json.total).toBe(before.json.total);
    expect(canonical(after.json)).toBe(canonical(before.json));
    let lost = 0;
    for (const item of models) {
      const entry = await http().get(`/content/${item.id}`);
      try {
        compare(item, entry.json, 'after a restart');
      } catch {
        lost++;
      }
    }
    tally.add('writesLost', lost);
    expect(lost, 'items that differ from the replay after a restart').toBe(0);
    expect(await unparseableFiles(site.contentRoot)).toEqual([]);
    expect((await filesUnder(site.contentRoot)).filter(isTempFile)).toEqual([]);
  });
});
