/**
 * PNGs read back in tests: size from IHDR, pixels from the IDAT chunks
 * inflated and unfiltered (8-bit RGB or RGBA, not interlaced, as resvg writes them).
 */
import { inflateSync } from 'node:zlib';
import { expect } from 'vitest';

export interface Image {
  width: number;
  height: number;
  /** The RGBA of a pixel. */
  at(x: number, y: number): [number, number, number, number];
}

/** A PNG of 8-bit RGB or RGBA, not interlaced, as resvg writes them. */
export function decodePng(bytes: Buffer): Image {
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  for (let offset = 8; offset < bytes.length;) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString('latin1', offset + 4, offset + 8);
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      expect(body[8], 'bit depth').toBe(8);
      channels = { 2: 3, 6: 4 }[body[9]!]!;
      expect(channels, `color type ${body[9]}`).toBeDefined();
      expect(body[12], 'interlace').toBe(0);
    }
    if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(data));
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i]!;
      const a = i >= channels ? pixels[y * stride + i - channels]! : 0;
      const b = y > 0 ? pixels[(y - 1) * stride + i]! : 0;
      const c = i >= channels && y > 0 ? pixels[(y - 1) * stride + i - channels]! : 0;
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter]!;
      pixels[y * stride + i] = (x + predictor) & 0xff;
    }
  }
  return {
    width,
    height,
    at(x, y) {
      const i = y * stride + x * channels;
      return [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!, channels === 4 ? pixels[i + 3]! : 255];
    },
  };
}

export function hex(pixel: [number, number, number, number]): string {
  return `#${pixel
    .slice(0, 3)
    .map((v) => v.toString(16).padStart(2, '0'))
    .join('')}`;
}

/** How many pixels of a box differ from a color: the text drawn on it. */
export function inked(
  image: Image,
  background: string,
  box: [number, number, number, number],
): number {
  let count = 0;
  for (let y = box[1]; y < box[3]; y++)
    for (let x = box[0]; x < box[2]; x++) if (hex(image.at(x, y)) !== background) count++;
  return count;
}
