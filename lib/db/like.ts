/**
 * Prisma's `contains` hands the text to LIKE as is, where % and _ are wildcards;
 * escaping them makes a search match the characters typed.
 */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`)
}
