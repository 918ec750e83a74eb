import zlib from 'node:zlib';

/** Real PNG files: small ones for the asset library, and one large one streamed for the upload measure. */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(data, zlib.crc32(Buffer.from(type, 'latin1'))) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

function ihdr(width, height, colorType) {
  const data = Buffer.alloc(13);
  data.writeUInt32BE(width, 0);
  data.writeUInt32BE(height, 4);
  data[8] = 8; // bit depth
  data[9] = colorType; // 0 grey, 2 RGB
  return chunk('IHDR', data); // compression, filter and interlace bytes stay 0
}

/** An RGB PNG of `width`×`height` with a two-colour gradient picked by `seed`. */
export function smallPng(width, height, seed) {
  const row = 1 + width * 3;
  const raw = Buffer.alloc(row * height);
  const r = (seed * 97) % 256,
    g = (seed * 57) % 256,
    b = (seed * 31) % 256;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = y * row + 1 + x * 3;
      raw[at] = (r + x * 4) & 0xff;
      raw[at + 1] = (g + y * 4) & 0xff;
      raw[at + 2] = (b + (x ^ y)) & 0xff;
    }
  }
  return Buffer.concat([
    SIGNATURE,
    ihdr(width, height, 2),
    chunk('IDAT', zlib.deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

const STORED_MAX = 65_535;
const IDAT_BYTES = 1 << 20;

/**
 * A valid greyscale PNG of about `targetBytes`, produced chunk by chunk so the client never holds
 * it: the zlib stream uses stored (uncompressed) deflate blocks, cut into 1 MiB IDAT chunks.
 * Returns its exact size (for Content-Length) and a function that yields its bytes.
 */
export function largePng(targetBytes) {
  const width = 4096;
  const rowBytes = width + 1;
  const height = Math.max(1, Math.ceil(targetBytes / rowBytes));
  const rawBytes = rowBytes * height;
  // One scanline (filter byte 0, then a ramp), tiled so that any block is a slice of it.
  const tile = Buffer.alloc(rowBytes * (Math.ceil(STORED_MAX / rowBytes) + 1));
  for (let at = 0; at < tile.length; at++) tile[at] = at % rowBytes === 0 ? 0 : (at % rowBytes) & 0xff;

  const blocks = Math.ceil(rawBytes / STORED_MAX);
  const zlibBytes = 2 + blocks * 5 + rawBytes + 4;
  const idatCount = Math.ceil(zlibBytes / IDAT_BYTES);
  const size = SIGNATURE.length + 25 /* IHDR */ + idatCount * 12 + zlibBytes + 12 /* IEND */;

  function adler32() {
    // Deferred modulo: 5552 is the longest run of bytes whose sums cannot overflow (zlib's NMAX).
    let a = 1,
      b = 0;
    for (let offset = 0; offset < rawBytes; offset += STORED_MAX) {
      const length = Math.min(STORED_MAX, rawBytes - offset);
      const start = offset % rowBytes;
      for (let i = 0; i < length; ) {
        const end = Math.min(length, i + 5552);
        for (; i < end; i++) {
          a += tile[start + i];
          b += a;
        }
        a %= 65521;
        b %= 65521;
      }
    }
    return ((b << 16) | a) >>> 0;
  }

  function* zlibStream() {
    yield Buffer.from([0x78, 0x01]);
    for (let offset = 0; offset < rawBytes; offset += STORED_MAX) {
      const length = Math.min(STORED_MAX, rawBytes - offset);
      const header = Buffer.alloc(5);
      header[0] = offset + length >= rawBytes ? 1 : 0; // BFINAL, BTYPE 00 (stored)
      header.writeUInt16LE(length, 1);
      header.writeUInt16LE(~length & 0xffff, 3);
      yield header;
      const start = offset % rowBytes;
      yield tile.subarray(start, start + length);
    }
    const checksum = Buffer.alloc(4);
    checksum.writeUInt32BE(adler32Value, 0);
    yield checksum;
  }

  let adler32Value = 0;
  return {
    size,
    width,
    height,
    /** Computes the checksum up front (a CPU-only pass), so the upload itself is only copying. */
    prepare() {
      adler32Value = adler32();
    },
    *bytes() {
      yield SIGNATURE;
      yield ihdr(width, height, 0);
      let pending = [];
      let pendingBytes = 0;
      const flush = () => {
        const data = Buffer.concat(pending, pendingBytes);
        pending = [];
        pendingBytes = 0;
        return chunk('IDAT', data);
      };
      for (let piece of zlibStream()) {
        while (piece.length > 0) {
          const take = Math.min(piece.length, IDAT_BYTES - pendingBytes);
          pending.push(piece.subarray(0, take));
          pendingBytes += take;
          piece = piece.subarray(take);
          if (pendingBytes === IDAT_BYTES) yield flush();
        }
      }
      if (pendingBytes > 0) yield flush();
      yield chunk('IEND', Buffer.alloc(0));
    },
  };
}
