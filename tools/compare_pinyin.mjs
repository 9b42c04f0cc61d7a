#!/usr/bin/env node
// Agreement of textfp's pinyin initials with the npm package pinyin-pro.
//
//   mkdir -p /tmp/pp && (cd /tmp/pp && npm install pinyin-pro@3)
//   cc -O2 -Isrc/core -Isrc/core/generated -o /tmp/pinyin_letters tools/pinyin_letters.c src/core/tfp_pinyin*.c src/core/generated/tfp_pinyin*.c src/core/tfp_unicode.c src/core/generated/tfp_unicode_data.c -lm
//   /tmp/pinyin_letters -l < LINES > /tmp/ours.txt
//   NODE_PATH=/tmp/pp/node_modules node tools/compare_pinyin.mjs LINES /tmp/ours.txt
//
// LINES: UTF-8 text, one line per sample (test/bench/pinyin_compare.sh makes
// them from test/data/pool_zh.txt).  For each line, pinyin-pro's first
// letters of the Han characters (nonZh removed) are compared position by
// position with ours (one letter per Han syllable); lines whose counts
// differ (a character one side has no reading for) are compared up to the
// shorter length and counted separately.  Prints the agreement and the most
// frequent disagreements (character, ours, theirs) to guide the phrase table.
import { createRequire } from 'module';
import fs from 'fs';
const require = createRequire(import.meta.url + '/../');
const { pinyin } = require('pinyin-pro');

const [linesFile, oursFile] = process.argv.slice(2);
const lines = fs.readFileSync(linesFile, 'utf8').split('\n');
const ours = fs.readFileSync(oursFile, 'utf8').split('\n');
let chars = 0, agree = 0, linesOk = 0, nlines = 0, lenDiff = 0;
const dis = new Map();
const han = /[\u3400-\u9fff\uf900-\ufaff\u{20000}-\u{323af}]/u;
for (let i = 0; i < lines.length; i++) {
  const line = lines[i];
  if (!line) continue;
  const hanChars = [...line].filter((c) => han.test(c));
  if (hanChars.length === 0) continue;
  nlines++;
  const theirs = pinyin(hanChars.join(''), { pattern: 'first', toneType: 'none', type: 'array' })
    .map((s) => s.toLowerCase());
  const mine = ours[i] || '';
  if (theirs.length !== mine.length) lenDiff++;
  const n = Math.min(theirs.length, mine.length);
  let all = theirs.length === mine.length;
  for (let k = 0; k < n; k++) {
    chars++;
    if (theirs[k] === mine[k]) agree++;
    else {
      all = false;
      const key = `${hanChars[k]} ours=${mine[k]} pinyin-pro=${theirs[k]}`;
      dis.set(key, (dis.get(key) || 0) + 1);
    }
  }
  if (all) linesOk++;
}
console.log(`lines ${nlines}, Han characters compared ${chars}`);
console.log(`initials agreement: ${(100 * agree / chars).toFixed(2)}% of characters, ` +
  `${(100 * linesOk / nlines).toFixed(2)}% of lines identical (${lenDiff} lines with different counts)`);
console.log('most frequent disagreements:');
[...dis.entries()].sort((a, b) => b[1] - a[1]).slice(0, +(process.env.TOP || 40))
  .forEach(([k, v]) => console.log(`  ${v}\t${k}`));
