// The text of an HTML description, as Shopify answers `description` on products and collections.

/** `<p>Hi <b>there</b></p>` → `Hi there` (Product.description, Collection.description). */
export function plainText(html: string): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&nbsp;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ')
    .trim();
}
