// Lesson docs: markdown rendered by marked, sanitized by DOMPurify.
import DOMPurify from "dompurify";
import { marked } from "marked";

export function renderMarkdown(md: string): string {
  const html = marked.parse(md, { async: false, gfm: true }) as string;
  return DOMPurify.sanitize(html);
}
