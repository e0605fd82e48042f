// The analysis command's options: given to yargs (cli.ts), and read without it when a command line is only inputs
// and these options in their plain spellings, since loading yargs is slow next to a whole run. Any
// other command line (learn, serve, --help, --name=value, --no-json, a repeated option, a mistake to report) is
// left to yargs; a test holds the two readings equal wherever this one reads a line.
import type { Options } from 'yargs';
import { EXPORT_FORMATS, type ExportFormat } from '../output/export';

export const ANALYZE_OPTIONS = {
  o: {
    alias: 'output',
    type: 'string',
    describe: 'output file (one image) or folder (several inputs, or a folder given)',
  },
  skin: {
    type: 'string',
    describe:
      'built-in skin name, skin folder, or none (read without a skin: only what it is sure of) ' +
      '(default: best fit of the built-in skins, skin-free if none fits)',
  },
  mines: {
    type: 'number',
    describe:
      'total mines in the game, flags included (adds count-only deductions, and probabilities away from the numbers)',
  },
  json: {
    type: 'boolean',
    default: false,
    describe: 'print one JSON object per input (an array for several, or for a folder)',
  },
  board: {
    type: 'boolean',
    default: false,
    describe: 'print the read board with m (certain mine) / s (certain safe) overlays',
  },
  'trust-flags': {
    type: 'boolean',
    default: false,
    describe: 'treat flags as mines instead of hints (listed as trusted, not checked)',
  },
  r: {
    alias: 'recursive',
    type: 'boolean',
    default: false,
    describe: 'also the images in subfolders of a folder given (outputs mirror the subfolders under -o)',
  },
  jobs: {
    type: 'number',
    describe:
      'files analysed at once in a batch, each in a worker thread ' +
      '(default: the CPU cores for 8 files or more; at most 4 a core)',
  },
  debug: {
    type: 'boolean',
    default: false,
    describe:
      'also write <name>.debug.png: the located region, the fitted grid, and per cell its reading and match margin ' +
      '(attach it to a bug report)',
  },
  probabilities: {
    type: 'boolean',
    default: false,
    describe: 'draw the mine probability (%) of every uncertain hidden cell as a heat map',
  },
  explain: {
    type: 'string',
    describe: 'print, in words, why cell ROW,COL (from 0) is certain, or its mine probability',
  },
  export: {
    choices: EXPORT_FORMATS,
    describe: 'print the read board as a JSMinesweeper .mine file or a minesweepr ascii board',
  },
} as const satisfies Record<string, Options>;

export interface AnalyzeArgs {
  inputs: string[];
  output?: string;
  skin?: string;
  mines?: number;
  json: boolean;
  board: boolean;
  trustFlags: boolean;
  probabilities: boolean;
  debug: boolean;
  recursive: boolean;
  jobs?: number;
  explain?: string;
  export?: ExportFormat;
}

/** A string unless it says otherwise. */
type Option = { alias?: string; type?: 'string' | 'number' | 'boolean'; choices?: readonly string[] };

/** Each option by its plain spellings (-o, --output), with the field of AnalyzeArgs it sets. */
const SPELLINGS = new Map<string, { field: string; option: Option }>(
  Object.entries(ANALYZE_OPTIONS as Record<string, Option>).flatMap(([key, option]) => {
    const field = (option.alias ?? key).replace(/-(.)/g, (_, c: string) => c.toUpperCase());
    return [key, option.alias]
      .filter((name) => name !== undefined)
      .map((name) => [(name.length === 1 ? '-' : '--') + name, { field, option }]);
  }),
);

/** What yargs-parser reads as a number (and may then treat apart from other words). */
const NUMBER_LIKE = /^(0x[0-9a-f]+|-?(\d+(\.\d*)?|\.\d+)(e[-+]?\d+)?)$/i;

/** yargs may take either for its command wherever it stands (`--json a.png learn` runs learn). */
const OTHER_COMMANDS = new Set(['learn', 'serve']);

/** The analysis command's arguments, or undefined when the command line is for yargs to read. */
export function plainAnalyzeArgs(argv: readonly string[]): AnalyzeArgs | undefined {
  const inputs: string[] = [];
  const args: Record<string, unknown> = { inputs };
  for (const { field, option } of SPELLINGS.values()) if (option.type === 'boolean') args[field] = false;
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i];
    // a lone - is an input: standard input (analyze/batch.ts)
    if (!token.startsWith('-') || token === '-') {
      if (token === '' || NUMBER_LIKE.test(token) || OTHER_COMMANDS.has(token)) return undefined;
      inputs.push(token);
      continue;
    }
    const spelled = SPELLINGS.get(token);
    if (spelled === undefined || given.has(spelled.field)) return undefined;
    given.add(spelled.field);
    const { field, option } = spelled;
    const value = argv[i + 1];
    if (option.type === 'boolean') {
      if (value === 'true' || value === 'false') return undefined;
      args[field] = true;
      continue;
    }
    if (
      value === undefined ||
      value === '' ||
      value.startsWith('-') ||
      NUMBER_LIKE.test(value) !== (option.type === 'number')
    )
      return undefined;
    if (option.type === 'number' && !/^\d{1,9}$/.test(value)) return undefined;
    if (option.choices && !option.choices.includes(value)) return undefined;
    args[field] = option.type === 'number' ? Number(value) : value;
    i++;
  }
  return inputs.length > 0 ? (args as unknown as AnalyzeArgs) : undefined;
}
