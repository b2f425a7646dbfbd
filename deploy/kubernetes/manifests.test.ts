/**
 * The Kubernetes manifests as a cluster would get them: every overlay rendered with
 * `kubectl kustomize` (or a standalone `kustomize build`), each object validated against the
 * Kubernetes API schemas (kubernetes-models), KEDA's CRD schema (@kubernetes-models/keda) and
 * the Prometheus Operator's (@kubernetes-models/prometheus-operator), then checked for what
 * running the product needs: one Deployment per worker service and a KEDA ScaledObject with a
 * trigger on the backlog of every queue it works (the queues and the workers are read from the
 * job catalog and the services, the job locks from their env defaults, so a new queue without
 * a trigger fails here), the scalers' queries on this deployment's namespace, a PodMonitor
 * scraping every pod, probes on every Deployment, graceful termination past each worker's
 * job lock, resources, and Secrets referenced, never inlined.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import * as appsV1 from 'kubernetes-models/apps/v1';
import * as autoscalingV2 from 'kubernetes-models/autoscaling/v2';
import * as batchV1 from 'kubernetes-models/batch/v1';
import * as policyV1 from 'kubernetes-models/policy/v1';
import * as coreV1 from 'kubernetes-models/v1';
import * as kedaV1alpha1 from '@kubernetes-models/keda/keda.sh/v1alpha1';
import * as monitoringV1 from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { QUEUES, SHUTDOWN_TIMEOUT_MS, type TQueueName } from '@aso/queue';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, '../..');
const OVERLAYS = readdirSync(join(HERE, 'overlays'));

/** The models that validate each `apiVersion/kind` the manifests may hold. */
const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': appsV1.Deployment,
  'autoscaling/v2/HorizontalPodAutoscaler': autoscalingV2.HorizontalPodAutoscaler,
  'batch/v1/Job': batchV1.Job,
  'policy/v1/PodDisruptionBudget': policyV1.PodDisruptionBudget,
  'v1/ConfigMap': coreV1.ConfigMap,
  'v1/Service': coreV1.Service,
  'keda.sh/v1alpha1/ScaledObject': kedaV1alpha1.ScaledObject,
  'monitoring.coreos.com/v1/PodMonitor': monitoringV1.PodMonitor,
};

/** `QUEUES` by its keys (`QUEUES.csvMerge` is `csv-merge`). */
const QUEUE_BY_KEY = QUEUES as Record<string, TQueueName>;

/**
 * The worker services (`services/<name>`, the Deployment's name), each with the queues its
 * `service.ts` starts a worker on (`ctx.worker(<queue>, ...)`) and its job lock
 * (`LOCK_DURATION_MS`'s default in its `env.ts`, ms).
 */
const WORKERS: Record<string, { queues: TQueueName[]; lockMs: number }> = Object.fromEntries(
  await Promise.all(
    readdirSync(join(REPO, 'services'))
      .filter((name) => existsSync(join(REPO, 'services', name, 'src/service.ts')))
      .map((name) => {
        const source = readFileSync(join(REPO, 'services', name, 'src/service.ts'), 'utf8');
        // `ctx.worker(QUEUES.scrape, ...)` or `ctx.worker('analysis', ...)`.
        const queues = [...source.matchAll(/ctx\.worker\(\s*(?:QUEUES\.(\w+)|'([^']+)')/g)].map(
          (m) => {
            const queue = m[1] ? QUEUE_BY_KEY[m[1]] : Object.values(QUEUES).find((q) => q === m[2]);
            if (!queue) throw new Error(`services/${name}: queue ${m[1] ?? m[2]} is not in QUEUES`);
            return queue;
          },
        );
        return { name, queues };
      })
      .filter((w) => w.queues.length > 0)
      .map(
        async ({ name, queues }): Promise<[string, { queues: TQueueName[]; lockMs: number }]> => {
          const env = (await import(join(REPO, 'services', name, 'src/env.ts'))) as Record<
            string,
            unknown
          >;
          // The zod object schema of the service's environment (whatever its export is called).
          const schema = Object.values(env).find(
            (v): v is { shape: { LOCK_DURATION_MS: { parse(value: unknown): number } } } =>
              typeof v === 'object' &&
              v !== null &&
              'shape' in v &&
              typeof v.shape === 'object' &&
              v.shape !== null &&
              'LOCK_DURATION_MS' in v.shape,
          );
          if (!schema) throw new Error(`services/${name}/src/env.ts exports no LOCK_DURATION_MS`);
          return [name, { queues, lockMs: schema.shape.LOCK_DURATION_MS.parse(undefined) }];
        },
      ),
  ),
);

/** The kustomize a test run renders with (at least v5: `labels`, `replacements` with wildcards). */
const KUSTOMIZE_MIN_MAJOR = 5;

/** What to install when no kustomize renders the overlays. */
const INSTALL_HINT =
  "install kubectl 1.27 or newer (it embeds kustomize 5; https://kubernetes.io/docs/tasks/tools/) or a standalone kustomize 5 (https://kubectl.docs.kubernetes.io/installation/kustomize/); Debian bookworm's kubernetes-client (kubectl 1.20, kustomize 2) is too old";

/** Major version of a kustomize version string (`v5.5.0`, `kustomize/v5.4.2`), or null. */
function kustomizeMajor(version: string): number | null {
  const m = /v(\d+)\.\d+/.exec(version);
  return m ? Number(m[1]) : null;
}

/**
 * The command that renders an overlay: `kubectl kustomize` when kubectl embeds kustomize 5 or
 * newer, else `kustomize build`.
 * @throws Error naming what to install when neither is there (or both are too old).
 */
function kustomizeCommand(): { cmd: string; args: string[] } {
  const tried: string[] = [];
  try {
    const out = execFileSync('kubectl', ['version', '--client', '-o', 'json'], {
      encoding: 'utf8',
      timeout: 15_000,
    });
    const version = (JSON.parse(out) as { kustomizeVersion?: string }).kustomizeVersion ?? '';
    if ((kustomizeMajor(version) ?? 0) >= KUSTOMIZE_MIN_MAJOR)
      return { cmd: 'kubectl', args: ['kustomize'] };
    tried.push(`kubectl embeds kustomize ${version || 'of no known version'}`);
  } catch (err) {
    tried.push(`kubectl: ${(err as Error).message.split('\n')[0]}`);
  }
  try {
    const version = execFileSync('kustomize', ['version'], { encoding: 'utf8', timeout: 15_000 });
    if ((kustomizeMajor(version) ?? 0) >= KUSTOMIZE_MIN_MAJOR)
      return { cmd: 'kustomize', args: ['build'] };
    tried.push(`kustomize ${version.trim()}`);
  } catch (err) {
    tried.push(`kustomize: ${(err as Error).message.split('\n')[0]}`);
  }
  throw new Error(
    `no kustomize ${KUSTOMIZE_MIN_MAJOR} renders the overlays (${tried.join('; ')}): ${INSTALL_HINT}`,
  );
}

const KUSTOMIZE = kustomizeCommand();

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

interface Container {
  name: string;
  image?: string;
  ports?: Array<{ name?: string; containerPort: number }>;
  env?: Array<{ name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string } } }>;
  readinessProbe?: { httpGet?: { path: string } };
  livenessProbe?: { httpGet?: { path: string } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}

function render(overlay: string): K8sObject[] {
  const out = execFileSync(KUSTOMIZE.cmd, [...KUSTOMIZE.args, join(HERE, 'overlays', overlay)], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return parseAllDocuments(out).map((d) => d.toJS() as K8sObject);
}

const podSpec = (o: K8sObject) =>
  (
    o.spec as {
      template: { spec: { containers: Container[]; terminationGracePeriodSeconds?: number } };
    }
  ).template.spec;

describe.each(OVERLAYS)('the %s overlay', (overlay) => {
  const objects = render(overlay);
  const byKind = (kind: string) => objects.filter((o) => o.kind === kind);

  it('holds only objects valid against the Kubernetes API and KEDA CRD schemas', () => {
    expect(objects.length).toBeGreaterThan(10);
    for (const o of objects) {
      const Model = MODELS[`${o.apiVersion}/${o.kind}`];
      expect(Model, `${o.apiVersion} ${o.kind} ${o.metadata.name}`).toBeDefined();
      expect(() => new Model!(o as never).validate(), `${o.kind} ${o.metadata.name}`).not.toThrow();
    }
  });

  it('runs the api behind a Service, scaled by CPU, with a disruption budget and probes', () => {
    const api = byKind('Deployment').find((d) => d.metadata.name === 'api')!;
    const [container] = podSpec(api).containers;
    expect(container!.readinessProbe?.httpGet?.path).toBe('/readyz');
    expect(container!.livenessProbe?.httpGet?.path).toBe('/healthz');
    expect(byKind('Service').map((s) => s.metadata.name)).toContain('api');
    const hpa = byKind('HorizontalPodAutoscaler').find((h) => h.metadata.name === 'api');
    expect(hpa?.spec).toMatchObject({
      scaleTargetRef: { kind: 'Deployment', name: 'api' },
      metrics: [{ type: 'Resource', resource: { name: 'cpu' } }],
    });
    expect(byKind('PodDisruptionBudget').map((p) => p.metadata.name)).toContain('api');
    expect(byKind('Job').map((j) => j.metadata.name)).toEqual(['aso-migrate']);
  });

  it('gives every Deployment probes, resources, an image and graceful termination', () => {
    for (const d of byKind('Deployment')) {
      const spec = podSpec(d);
      for (const c of spec.containers) {
        expect(c.image, d.metadata.name).toMatch(/^aso-(api|worker)/);
        expect(c.readinessProbe?.httpGet, d.metadata.name).toBeDefined();
        expect(c.livenessProbe?.httpGet, d.metadata.name).toBeDefined();
        expect(Object.keys(c.resources?.requests ?? {}).sort()).toEqual(['cpu', 'memory']);
        expect(Object.keys(c.resources?.limits ?? {}).sort()).toEqual(['cpu', 'memory']);
      }
      const worker = WORKERS[d.metadata.name];
      if (worker) {
        const graceMs = (spec.terminationGracePeriodSeconds ?? 30) * 1000;
        expect(graceMs, d.metadata.name).toBeGreaterThan(
          Math.max(worker.lockMs, SHUTDOWN_TIMEOUT_MS),
        );
      }
    }
  });

  it('works every queue of the catalog in exactly one worker service', () => {
    const worked = Object.values(WORKERS).flatMap((w) => w.queues);
    expect([...worked].sort()).toEqual(Object.values(QUEUES).sort());
  });

  it('scales every worker with a KEDA ScaledObject on each of its queues waiting, prioritized and delayed jobs, in its namespace', () => {
    const deployments = byKind('Deployment').map((d) => d.metadata.name);
    expect(deployments.filter((n) => n !== 'api').sort()).toEqual(Object.keys(WORKERS).sort());
    const scaled = byKind('ScaledObject');
    for (const [name, { queues }] of Object.entries(WORKERS)) {
      const so = scaled.find(
        (s) => (s.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name === name,
      );
      expect(so, `ScaledObject of ${name}`).toBeDefined();
      const spec = so!.spec as {
        minReplicaCount: number;
        maxReplicaCount: number;
        cooldownPeriod: number;
        triggers: Array<{
          type: string;
          metadata: { query: string; threshold: string; serverAddress: string };
        }>;
      };
      expect(spec.minReplicaCount).toBeGreaterThanOrEqual(1);
      expect(spec.maxReplicaCount).toBeGreaterThan(spec.minReplicaCount);
      expect(spec.cooldownPeriod).toBeGreaterThan(0);
      expect(spec.triggers.map((t) => t.type)).toEqual(queues.map(() => 'prometheus'));
      const namespace = so!.metadata.namespace;
      expect(namespace, `namespace of ScaledObject ${name}`).toBeTruthy();
      for (const queue of queues) {
        const trigger = spec.triggers.find((t) => t.metadata.query.includes(`queue="${queue}"`));
        expect(trigger, `trigger of ${name} on ${queue}`).toBeDefined();
        const { query, threshold, serverAddress } = trigger!.metadata;
        // This deployment's queue only: another deployment's pods export the same gauge.
        expect(query).toContain(
          `aso_queue_jobs{namespace="${namespace}",queue="${queue}",state=~"waiting|prioritized|delayed"}`,
        );
        expect(Number(threshold)).toBeGreaterThan(0);
        // The Prometheus Operator's Service, which the PodMonitors feed.
        expect(serverAddress).toMatch(/^http:\/\/prometheus-operated\./);
      }
    }
  });

  it('scrapes /metrics of every pod with a PodMonitor, on a port the pod names', () => {
    const monitors = byKind('PodMonitor').map(
      (m) =>
        m.spec as {
          selector: {
            matchLabels?: Record<string, string>;
            matchExpressions?: Array<{ key: string; operator: string; values: string[] }>;
          };
          podMetricsEndpoints: Array<{ port: string; path: string }>;
        },
    );
    const selects = (
      selector: (typeof monitors)[number]['selector'],
      labels: Record<string, string>,
    ) =>
      Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v) &&
      (selector.matchExpressions ?? []).every(
        (e) => e.operator === 'In' && e.values.includes(labels[e.key] ?? ''),
      );
    for (const d of byKind('Deployment')) {
      const template = (d.spec as { template: { metadata: { labels: Record<string, string> } } })
        .template;
      const ports = podSpec(d).containers.flatMap((c) => c.ports ?? []);
      const scraped = monitors.filter((m) => selects(m.selector, template.metadata.labels));
      expect(scraped.length, `PodMonitors of ${d.metadata.name}`).toBe(1);
      const endpoints = scraped[0]!.podMetricsEndpoints.filter((e) =>
        ports.some((p) => p.name === e.port),
      );
      expect(
        endpoints.map((e) => e.path),
        d.metadata.name,
      ).toEqual(['/metrics']);
    }
    for (const m of byKind('PodMonitor'))
      expect(m.metadata.labels?.['app.kubernetes.io/part-of'], m.metadata.name).toBe('aso');
  });

  it('reads DATABASE_URL, the Redis address and SECRETS_KEY from a Secret and inlines no secret', () => {
    expect(byKind('Secret')).toEqual([]);
    const redisVar = overlay === 'redis-cluster' ? 'REDIS_CLUSTER_NODES' : 'REDIS_URL';
    const secretVars = new Set([
      'DATABASE_URL',
      'SECRETS_KEY',
      'REDIS_URL',
      'REDIS_CLUSTER_NODES',
      'OPENAI_API_KEY',
      'ADMIN_ACCESS_CODE',
    ]);
    for (const d of [...byKind('Deployment'), ...byKind('Job')]) {
      for (const c of podSpec(d).containers) {
        const env = c.env ?? [];
        for (const e of env.filter((v) => secretVars.has(v.name))) {
          expect(e.value, `${d.metadata.name} ${e.name}`).toBeUndefined();
          expect(e.valueFrom?.secretKeyRef?.name, `${d.metadata.name} ${e.name}`).toBe(
            'aso-secrets',
          );
        }
        const names = env.map((v) => v.name);
        expect(names, d.metadata.name).toContain('DATABASE_URL');
        if (d.kind === 'Deployment') expect(names, d.metadata.name).toContain(redisVar);
      }
    }
    // The api seals App Store Connect keys, the importer opens them.
    for (const name of ['api', 'asc-import']) {
      const d = byKind('Deployment').find((x) => x.metadata.name === name)!;
      expect(podSpec(d).containers[0]!.env?.map((v) => v.name)).toContain('SECRETS_KEY');
    }
    for (const cm of byKind('ConfigMap'))
      for (const key of Object.keys(cm.data ?? {})) expect(secretVars.has(key), key).toBe(false);
  });
});

it('keeps the filled-in Secret env file out of git', () => {
  expect(readFileSync(join(HERE, '.gitignore'), 'utf8').split('\n')).toContain('secrets.env');
  const example = readFileSync(join(HERE, 'secrets.env.example'), 'utf8');
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'REDIS_CLUSTER_NODES', 'SECRETS_KEY'])
    expect(example).toMatch(new RegExp(`^${key}=`, 'm'));
});
