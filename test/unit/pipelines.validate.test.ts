import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/errors/app-error.js';
import { presentConfig } from '../../src/pipelines/pipelines.present.js';
import type { PipelineConfig } from '../../src/pipelines/pipelines.types.js';
import { LIMITS } from '../../src/pipelines/pipelines.schema.js';
import { readPipelineConfig } from '../../src/pipelines/pipelines.validate.js';

const none = { pipelines: new Set<string>(), stages: new Set<string>() };

function failures(body: unknown, known = none) {
  try {
    readPipelineConfig(body, known);
  } catch (error) {
    if (error instanceof AppError) return error.fieldErrors?.map((e) => `${e.field} ${e.code}`) ?? [`${error.code}`];
    throw error;
  }
  return [];
}

describe('readPipelineConfig', () => {
  it('the catalog may come after the pipelines in the body: reason keys still resolve', () => {
    const body = {
      pipelines: [{ name: 'P', stages: [{ name: 'S', state: 'OPEN', reasons: ['k'] }] }],
      stageReasons: [{ key: 'k', label: 'K' }],
    };
    expect(failures(body)).toEqual([]);
    expect(readPipelineConfig(body, none).pipelines[0]!.stages[0]!.reasons).toEqual(['k']);
  });

  it('defaults: isPrimary/isArchived false, reasons/labels empty, unset numbers and ids absent', () => {
    const config = readPipelineConfig(
      { pipelines: [{ name: 'P', stages: [{ name: 'S', state: 'NEW' }] }], stageReasons: [] },
      none,
    );
    expect(config.pipelines[0]).toEqual({
      name: 'P',
      isPrimary: false,
      isArchived: false,
      stages: [{ name: 'S', state: 'NEW', reasons: [], labels: [], isArchived: false }],
    });
  });

  it('names and labels are trimmed; reason keys are taken exactly and refuse surrounding whitespace', () => {
    const config = readPipelineConfig(
      {
        pipelines: [{ name: ' P ', stages: [{ name: ' S', state: 'NEW', labels: [' a '] }] }],
        stageReasons: [{ key: 'k', label: ' L ' }],
      },
      none,
    );
    expect(config.pipelines[0]!.name).toBe('P');
    expect(config.pipelines[0]!.stages[0]!.labels).toEqual(['a']);
    expect(config.stageReasons[0]!.label).toBe('L');
    expect(failures({ pipelines: [], stageReasons: [{ key: ' k', label: 'L' }] })).toEqual([
      'stageReasons[0].key INVALID_FIELD_VALUE',
    ]);
  });

  it('a blank description is no description; lone surrogates are refused', () => {
    const config = readPipelineConfig(
      { pipelines: [{ name: 'P', description: '  ', stages: [] }], stageReasons: [] },
      none,
    );
    expect('description' in config.pipelines[0]!).toBe(false);
    expect(failures({ pipelines: [{ name: 'P\uD800', stages: [] }], stageReasons: [] })).toEqual([
      'pipelines[0].name INVALID_FIELD_VALUE',
    ]);
  });

  it('lengths count code points: 200 emoji are a valid name, 201 are not', () => {
    const emoji = '😀';
    expect(failures({ pipelines: [{ name: emoji.repeat(LIMITS.name), stages: [] }], stageReasons: [] })).toEqual([]);
    expect(failures({ pipelines: [{ name: emoji.repeat(LIMITS.name + 1), stages: [] }], stageReasons: [] })).toEqual([
      'pipelines[0].name INVALID_FIELD_VALUE',
    ]);
  });

  it('too many entries are refused by the array path', () => {
    const pipelines = Array.from({ length: LIMITS.pipelines + 1 }, (_, i) => ({ name: `P${i}`, stages: [] }));
    expect(failures({ pipelines, stageReasons: [] })).toEqual(['pipelines INVALID_FIELD_VALUE']);
  });

  it('a second and a third primary are both named, in body order', () => {
    const pipelines = ['a', 'b', 'c'].map((name) => ({ name, isPrimary: true, stages: [] }));
    expect(failures({ pipelines, stageReasons: [] })).toEqual([
      'pipelines[1].isPrimary INVALID_FIELD_VALUE',
      'pipelines[2].isPrimary INVALID_FIELD_VALUE',
    ]);
  });

  it('known ids are kept by kind; a stage id cannot name a pipeline', () => {
    const known = { pipelines: new Set(['pl_1']), stages: new Set(['st_1']) };
    const ok = readPipelineConfig(
      { pipelines: [{ id: 'pl_1', name: 'P', stages: [{ id: 'st_1', name: 'S', state: 'NEW' }] }], stageReasons: [] },
      known,
    );
    expect(ok.pipelines[0]!.id).toBe('pl_1');
    expect(ok.pipelines[0]!.stages[0]!.id).toBe('st_1');
    expect(failures({ pipelines: [{ id: 'st_1', name: 'P', stages: [] }], stageReasons: [] }, known)).toEqual([
      'pipelines[0].id INVALID_FIELD_VALUE',
    ]);
  });

  it('-0 is stored as 0, and decayThresholdHours may be fractional', () => {
    const config = readPipelineConfig(
      {
        pipelines: [{ name: 'P', stages: [{ name: 'S', state: 'NEW', closure: -0, decayThresholdHours: 0.5 }] }],
        stageReasons: [],
      },
      none,
    );
    expect(Object.is(config.pipelines[0]!.stages[0]!.closure, 0)).toBe(true);
    expect(config.pipelines[0]!.stages[0]!.decayThresholdHours).toBe(0.5);
  });
});

describe('presentConfig', () => {
  const config: PipelineConfig = {
    pipelines: [
      {
        id: 'pl_a',
        name: 'P',
        isPrimary: true,
        isArchived: false,
        stages: [
          { id: 'st_1', name: 'A', state: 'NEW', reasons: ['live', 'gone'], labels: [], isArchived: false },
          { id: 'st_2', name: 'B', state: 'OPEN', reasons: [], labels: [], closure: 0, isArchived: true },
        ],
      },
    ],
    stageReasons: [
      { key: 'live', label: 'Live', isArchived: false },
      { key: 'gone', label: 'Gone', isArchived: true },
    ],
  };

  it('default: archived stages and reasons hidden, archived keys dropped from live stages', () => {
    expect(presentConfig(config, false)).toEqual({
      pipelines: [
        {
          id: 'pl_a',
          name: 'P',
          isPrimary: true,
          isArchived: false,
          stages: [{ id: 'st_1', name: 'A', state: 'NEW', reasons: ['live'], labels: [], isArchived: false }],
        },
      ],
      stageReasons: [{ key: 'live', label: 'Live', isArchived: false }],
    });
  });

  it('includeArchived: everything, a configured 0 kept, the stored document untouched', () => {
    const all = presentConfig(config, true);
    expect(all.pipelines[0]!.stages[1]).toEqual({
      id: 'st_2',
      name: 'B',
      state: 'OPEN',
      reasons: [],
      labels: [],
      closure: 0,
      isArchived: true,
    });
    expect(all.pipelines[0]!.stages[0]!.reasons).toEqual(['live', 'gone']);
    expect(all.stageReasons).toHaveLength(2);
    all.pipelines[0]!.stages[0]!.labels.push('mutated');
    expect(config.pipelines[0]!.stages[0]!.labels).toEqual([]);
  });
});
