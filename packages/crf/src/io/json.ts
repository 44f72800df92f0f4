import { refuse } from './errors.js';

/** A form JSON file: a CRDP export (`{ definition }`) or a bare form; checked later by parseForm. */
export function fromJson(text: string): unknown {
  try {
    const v = JSON.parse(text) as unknown;
    // A CRDP export wraps the form as { definition }; a bare form is accepted too.
    return v && typeof v === 'object' && 'definition' in v ? (v as { definition: unknown }).definition : v;
  } catch {
    throw refuse('content', '不是有效的 JSON', 'not JSON');
  }
}
