/**
 * The PNG widgets a publish need not draw: a file whose drawing has the key the deploy record
 * holds for it is already at the target with the bytes that key renders. While a group is
 * rendered, such a drawing comes back as a stand-in with no bytes, which the publish takes as the
 * file unchanged; a drawing rendered is known by its key, which the record keeps for next time.
 */
import type { FileText } from '../output/serialize.ts';
import type { PngStore } from '../status-site/png.ts';

/** A rendered file's drawing: its key, and whether its bytes were left undrawn. */
interface FileDrawing {
  key: string;
  standIn: boolean;
}

export class RecordedDrawings implements PngStore {
  /** Keys recorded for the groups about to be rendered, the latest last: drawings not asked for ahead. */
  private readonly expected = new Set<string>();
  /** The keys recorded for the files of the group being rendered, by file: the only ones left undrawn. */
  private current: ReadonlyMap<string, string> = new Map();
  private currentKeys: ReadonlySet<string> = new Set();
  private readonly keys = new WeakMap<Uint8Array, FileDrawing>();

  /** Keys recorded for groups whose drawings are about to be asked for ahead of their rendering. */
  expect(keys: Iterable<string>): void {
    for (const key of keys) {
      this.expected.delete(key);
      this.expected.add(key);
    }
    // Drawings are asked for a window of groups ahead; older keys only spare a few drawings.
    for (const key of this.expected) {
      if (this.expected.size <= EXPECTED_KEYS) break;
      this.expected.delete(key);
    }
  }

  /** The keys recorded for the files of the group rendered next, by file (none: draw every PNG). */
  rendering(keys: ReadonlyMap<string, string>): void {
    this.current = keys;
    this.currentKeys = new Set(keys.values());
  }

  /**
   * Whether a file of the group rendered came back undrawn though its own recorded key is another
   * (two files of the group share a drawing): then the group is to be rendered with every PNG drawn.
   */
  misplaced(files: readonly { data: FileText }[], names: readonly string[]): boolean {
    return files.some((file, i) => {
      const drawing = this.drawingOf(file.data);
      return drawing?.standIn === true && this.current.get(names[i]!) !== drawing.key;
    });
  }

  /** A hint for the drawings asked for ahead; get() decides for the group being rendered. */
  has(key: string): boolean {
    return this.currentKeys.has(key) || this.expected.has(key);
  }

  get(key: string): Uint8Array | null {
    if (!this.currentKeys.has(key)) return null;
    const standIn = new Uint8Array(0);
    this.keys.set(standIn, { key, standIn: true });
    return standIn;
  }

  put(key: string, png: Uint8Array): void {
    this.keys.set(png, { key, standIn: false });
  }

  /** The drawing a rendered file's text is, or null when it is not a PNG drawn through this store. */
  drawingOf(data: FileText): FileDrawing | null {
    if (typeof data === 'string' || data.length !== 1) return null;
    const part = data[0]!;
    return typeof part === 'string' ? null : (this.keys.get(part) ?? null);
  }
}

// --- internal ---

/** Recorded keys kept as hints: some 250 groups' worth of PNG widgets, a few hundred KB. */
const EXPECTED_KEYS = 4096;
