/** An image model as core uses it (camelCase); a field left out is unknown. */
export interface ImageModelSpec {
  id: string;
  description?: string;
  /** `WIDTHxHEIGHT` sizes; the first is the default. */
  sizes?: readonly string[];
  /** Most reference images one edit takes. */
  maxReferences?: number;
  /** Most images one request may ask for (`n`). */
  maxImages?: number;
  price?: { perImage: number };
}
