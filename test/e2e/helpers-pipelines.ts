import type { Locator, Page } from 'playwright-core';

interface StageInput {
  name: string;
  state: string;
  closure?: string;
  decay?: string;
  labels?: string;
  reasons?: string[];
}

const group = (scope: Page | Locator, name: string) => scope.getByRole('group', { name, exact: true });

async function fillStage(stage: Locator, input: StageInput): Promise<void> {
  await stage.getByLabel('Stage name').fill(input.name);
  await stage.getByLabel('State', { exact: true }).selectOption(input.state);
  if (input.closure !== undefined) await stage.getByLabel('Closure %').fill(input.closure);
  if (input.decay !== undefined) await stage.getByLabel('Decay (hours)').fill(input.decay);
  if (input.labels !== undefined) await stage.getByLabel('Labels').fill(input.labels);
  for (const reason of input.reasons ?? []) await stage.getByRole('checkbox', { name: reason, exact: true }).check();
}

async function addReason(page: Page, label: string, key?: string): Promise<void> {
  await page.getByRole('button', { name: '+ Add reason' }).click();
  const rows = page.locator('.reason-row');
  const row = rows.nth((await rows.count()) - 1);
  await row.getByLabel('Label').fill(label);
  if (key) await row.getByLabel('Key').fill(key);
}

/**
 * Builds, through the page, the configuration EXPECTED_ALL describes: reasons added out of order
 * and moved, one reason archived, stages added out of order and moved, one stage archived.
 * Starts from pipeline 1 holding one stage named "New lead".
 */
export async function buildPipelines(page: Page): Promise<void> {
  await addReason(page, 'Too expensive');
  await addReason(page, 'No budget');
  await addReason(page, 'Chose a competitor', 'chose-competitor');
  await group(page, 'Reason 3').getByRole('button', { name: 'Move reason up' }).click();
  await group(page, 'Reason 3').getByRole('button', { name: 'Archive reason' }).click();

  const sales = group(page, 'Pipeline 1');
  await sales.getByLabel('Pipeline name').fill('Sales');
  await sales.getByLabel('Description').fill('Inbound and outbound sales');
  const salesStages: StageInput[] = [
    { name: 'Qualified', state: 'OPEN', closure: '30', decay: '72', labels: 'hot, inbound' },
    { name: 'Won', state: 'CLOSED', closure: '100' },
    {
      name: 'Lost',
      state: 'DROPPED',
      closure: '0',
      reasons: ['Too expensive', 'Chose a competitor', 'No budget (archived)'],
    },
  ];
  for (const [i, stage] of salesStages.entries()) {
    await sales.getByRole('button', { name: '+ Add stage' }).click();
    await fillStage(group(sales, `Stage ${i + 2}`), stage);
  }

  await page.getByRole('button', { name: '+ Add pipeline' }).click();
  const partners = group(page, 'Pipeline 2');
  await partners.getByLabel('Pipeline name').fill('Partnerships');
  await fillStage(group(partners, 'Stage 1'), { name: 'Negotiation', state: 'OPEN', closure: '50', decay: '0' });
  const more: StageInput[] = [
    { name: 'Contacted', state: 'NEW' },
    { name: 'Declined', state: 'REJECTED', reasons: ['Chose a competitor'] },
    { name: 'Legacy review', state: 'OPEN' },
  ];
  for (const [i, stage] of more.entries()) {
    await partners.getByRole('button', { name: '+ Add stage' }).click();
    await fillStage(group(partners, `Stage ${i + 2}`), stage);
  }
  await group(partners, 'Stage 2').getByRole('button', { name: 'Move stage up' }).click();
  await group(partners, 'Stage 4').getByRole('button', { name: 'Archive stage' }).click();
}

const stage = (name: string, state: string, extra: Record<string, unknown> = {}) => ({
  name,
  state,
  reasons: [],
  labels: [],
  isArchived: false,
  ...extra,
});

export const EXPECTED_ALL = {
  pipelines: [
    {
      name: 'Sales',
      description: 'Inbound and outbound sales',
      isPrimary: true,
      isArchived: false,
      stages: [
        stage('New lead', 'NEW'),
        stage('Qualified', 'OPEN', { labels: ['hot', 'inbound'], closure: 30, decayThresholdHours: 72 }),
        stage('Won', 'CLOSED', { closure: 100 }),
        stage('Lost', 'DROPPED', { reasons: ['too-expensive', 'chose-competitor', 'no-budget'], closure: 0 }),
      ],
    },
    {
      name: 'Partnerships',
      isPrimary: false,
      isArchived: false,
      stages: [
        stage('Contacted', 'NEW'),
        stage('Negotiation', 'OPEN', { closure: 50, decayThresholdHours: 0 }),
        stage('Declined', 'REJECTED', { reasons: ['chose-competitor'] }),
        stage('Legacy review', 'OPEN', { isArchived: true }),
      ],
    },
  ],
  stageReasons: [
    { key: 'too-expensive', label: 'Too expensive', isArchived: false },
    { key: 'chose-competitor', label: 'Chose a competitor', isArchived: false },
    { key: 'no-budget', label: 'No budget', isArchived: true },
  ],
};

/** The default (no includeArchived) answer: archived entries gone, and the archived key gone from live stages. */
export const EXPECTED_LIVE = {
  pipelines: EXPECTED_ALL.pipelines.map((p) => ({
    ...p,
    stages: p.stages
      .filter((s) => !s.isArchived)
      .map((s) => ({ ...s, reasons: s.reasons.filter((k) => k !== 'no-budget') })),
  })),
  stageReasons: EXPECTED_ALL.stageReasons.filter((r) => !r.isArchived),
};

/** Checks every pipeline and stage carries a string id, and returns the configuration without them. */
export function stripIds(config: any): unknown {
  return {
    ...config,
    pipelines: config.pipelines.map(({ id, stages, ...pipeline }: any) => {
      if (typeof id !== 'string' || id === '') throw new Error(`pipeline without id: ${JSON.stringify(pipeline)}`);
      return {
        ...pipeline,
        stages: stages.map(({ id: stageId, ...rest }: any) => {
          if (typeof stageId !== 'string' || stageId === '')
            throw new Error(`stage without id: ${JSON.stringify(rest)}`);
          return rest;
        }),
      };
    }),
  };
}
