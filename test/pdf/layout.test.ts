/**
 * Layout steps on hand-made geometry whose answer is known by construction: joining runs into
 * lines, lines into paragraphs, and the reading order of boxes.
 */
import t from 'tap';
import { joinLines, textBlocks } from '../../shared/pdf/blocks.ts';
import { textLines, type TextLine } from '../../shared/pdf/lines.ts';
import { readingOrder, type Box } from '../../shared/pdf/order.ts';
import type { TextRun } from '../../shared/pdf/runs.ts';

/** A run of `text` at (x, baseline) in a font whose glyphs are all 0.5 em wide. */
function run(text: string, x: number, baseline: number, size = 10, font = 'body'): TextRun {
  return { text, x0: x, x1: x + 0.5 * size * text.length, top: baseline - 0.8 * size, bottom: baseline + 0.2 * size, baseline, size, font, horizontal: true };
}

t.test('runs to lines', async (t) => {
  const lines = textLines([
    run('Hello', 72, 100),
    run('world', 72 + 25 + 2.5, 100), // a 0.25 em word space
    run('glued', 72 + 25 + 2.5 + 25 + 0.5, 100), // 0.05 em: same word
    run('right', 340, 100), // far: another column
    run('2', 340 + 25, 97, 6), // superscript: same line
    run('•', 72, 120),
    run('item text', 72 + 5 + 14, 120), // list marker a tab away
  ]);
  const texts = lines.map((l) => l.text).sort();
  t.same(texts, ['Hello worldglued', 'right2', '• item text'].sort());
  const right = lines.find((l) => l.text === 'right2')!;
  t.equal(right.size, 10, 'size of most characters');
  t.equal(right.baseline, 100);
});

t.test('a tall run in one column does not merge two lines of the other', async (t) => {
  const lines = textLines([
    run('left heading', 72, 107, 14, 'bold'),
    run('upper right line', 320, 100),
    run('lower right line', 320, 112),
  ]);
  t.same(lines.map((l) => l.text).sort(), ['left heading', 'lower right line', 'upper right line']);
});

const line = (text: string, x0: number, x1: number, baseline: number, size = 10, font = 'body'): TextLine =>
  ({ text, x0, x1, top: baseline - 0.8 * size, bottom: baseline + 0.2 * size, baseline, size, font, horizontal: true });

t.test('lines to blocks', async (t) => {
  const blocks = textBlocks([
    line('A Centred Title That', 150, 460, 60, 20, 'bold'),
    line('Wraps Twice', 240, 370, 84, 20, 'bold'),
    line('Heading', 72, 130, 120, 12, 'bold'),
    line('First paragraph line one', 72, 540, 136),
    line('continues here.', 72, 300, 148),
    line('Indented second paragraph', 86, 540, 160),
    line('goes on.', 72, 200, 172),
    line('After a gap', 72, 540, 196),
    line('• bullet one', 72, 400, 208),
    line('hanging continuation', 84, 300, 220),
    line('• bullet two', 72, 400, 232),
    line('Figure 1. A caption', 72, 300, 244),
  ]);
  t.same(blocks.map((b) => b.text), [
    'A Centred Title That Wraps Twice',
    'Heading',
    'First paragraph line one continues here.',
    'Indented second paragraph goes on.',
    'After a gap',
    '• bullet one hanging continuation',
    '• bullet two',
    'Figure 1. A caption',
  ]);
  t.same(blocks[0], { ...blocks[0], x0: 150, x1: 460, top: 44, bottom: 88, size: 20, font: 'bold' }, 'block box and type');
});

t.test('line-end hyphens', async (t) => {
  t.equal(joinLines(['isola-', 'tion of']), 'isolation of', 'hyphenation between lower-case letters removed');
  t.equal(joinLines(['N-', 'methyl group']), 'N-methyl group', 'hyphen after a capital kept');
  t.equal(joinLines(['2-', 'amino acid']), '2-amino acid', 'hyphen after a digit kept');
  t.equal(joinLines(['soft\u00ad', 'ware']), 'software', 'soft hyphen removed');
  t.equal(joinLines(['a dash -', 'then']), 'a dash - then', 'free-standing dash is a word');
  t.equal(joinLines(['one', '', 'two']), 'one two');
});

const box = (name: string, x0: number, x1: number, top: number, bottom: number, lines = 1) =>
  ({ name, x0, x1, top, bottom, lines: Array.from({ length: lines }) });
const names = (boxes: (Box & { name: string })[]) => readingOrder(boxes).map((b) => b.name);

t.test('reading order', async (t) => {
  // Title across both columns; paragraph gaps at the same height in both columns; footer.
  const page = [
    box('footer', 280, 330, 750, 760),
    box('R2', 320, 540, 410, 700, 24),
    box('L2', 72, 290, 410, 700, 24),
    box('R1', 320, 540, 120, 400, 23),
    box('L1', 72, 290, 120, 400, 23),
    box('title', 100, 510, 60, 100, 2),
  ];
  t.same(names(page), ['title', 'L1', 'L2', 'R1', 'R2', 'footer']);
  // A table: one-line cells in rows; the rows share column gutters but are read row by row.
  const table = [0, 1, 2].flatMap((r) => [
    box(`r${r}c0`, 72, 150, 100 + 14 * r, 110 + 14 * r),
    box(`r${r}c1`, 200, 260, 100 + 14 * r, 110 + 14 * r),
  ]);
  t.same(names(table), ['r0c0', 'r0c1', 'r1c0', 'r1c1', 'r2c0', 'r2c1']);
  t.same(names([box('c', 400, 500, 10, 20), box('a', 10, 100, 10, 30), box('b', 200, 300, 5, 25)]), ['a', 'b', 'c'], 'three columns');
  t.same(names([box('author', 250, 350, 40, 50), box('title', 150, 450, 10, 30), box('body', 72, 540, 60, 100)]), ['title', 'author', 'body']);
  t.same(names([]), []);
});
