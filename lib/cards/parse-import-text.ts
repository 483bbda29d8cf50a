/** docs/PRODUCT.md §5: split by line, trim each line, drop empty lines. */
export function parseImportText(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
}
