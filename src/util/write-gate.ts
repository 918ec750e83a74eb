/**
 * Many writers at once, or one exclusive task (a git commit or pull) with no writer in flight:
 * an exclusive task waits for running writes to finish and holds new ones until it is done,
 * so no write is half-committed or lost under a pull.
 */
export class WriteGate {
  #active = 0;
  #exclusive: Promise<void> | null = null;
  #idle: Array<() => void> = [];

  async shared<T>(task: () => Promise<T>): Promise<T> {
    while (this.#exclusive) await this.#exclusive;
    this.#active++;
    try {
      return await task();
    } finally {
      if (--this.#active === 0) for (const resolve of this.#idle.splice(0)) resolve();
    }
  }

  async exclusive<T>(task: () => Promise<T>): Promise<T> {
    while (this.#exclusive) await this.#exclusive;
    let release!: () => void;
    this.#exclusive = new Promise((resolve) => {
      release = resolve;
    });
    try {
      if (this.#active > 0) await new Promise<void>((resolve) => this.#idle.push(resolve));
      return await task();
    } finally {
      this.#exclusive = null;
      release();
    }
  }
}
