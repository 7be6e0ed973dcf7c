/** A content file a pull writes: where, and its fields in the order they are written. */
export interface ContentFile {
  /** Relative to the content folder, with `/`: `projects/demo/components/app.yaml`. */
  path: string;
  /** The fields, in the order they are written. */
  value: Record<string, unknown>;
  /** Written as a `#` comment above the fields. */
  comment?: string;
}
