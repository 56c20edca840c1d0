import { describe, expect, it } from "vitest";
import { summarizeStudyLoad, type RequestSample, type StudyLoadResult } from "./study-load.ts";

/** A request of `kind` sent `sentAfter` ms after the start and answered in `milliseconds`. */
function sample(kind: RequestSample["kind"], sentAfter: number, milliseconds: number, status = 200): RequestSample {
  return { kind, status, endedAt: 1_000 + sentAfter + milliseconds, milliseconds, learner: 0 };
}

function runOf(samples: RequestSample[]): StudyLoadResult {
  return { learners: 2, seconds: 10, startedAt: 1_000, samples, acknowledgedRatings: [], uncertainRatings: new Map() };
}

describe("given a load run whose first requests were slow", () => {
  const samples = [
    // The learners' first requests, sent together at the start.
    sample("load", 0, 400),
    sample("load", 0, 380),
    sample("rate", 4_999, 90),
    // Sent at or after the warm-up.
    sample("rate", 5_000, 30),
    sample("load", 6_000, 20),
    sample("rate", 7_000, 40),
    sample("rate", 8_000, 500, 503),
  ];

  it("should keep every successful request in the whole run's figures", () => {
    const summary = summarizeStudyLoad(runOf(samples));
    expect(summary).toMatchObject({ requests: 7, errors: 1, errorsByStatus: { "503": 1 }, p99Milliseconds: 400, loadP99Milliseconds: 400, rateP99Milliseconds: 90 });
  });

  it("should give the steady figures over the successful requests sent once the warm-up was over", () => {
    const summary = summarizeStudyLoad(runOf(samples));
    expect(summary).toMatchObject({ warmUpSeconds: 5, steadyP50Milliseconds: 30, steadyP99Milliseconds: 40, steadyLoadP99Milliseconds: 20, steadyRateP99Milliseconds: 40 });
  });

  it("should take another warm-up when asked", () => {
    expect(summarizeStudyLoad(runOf(samples), 0)).toMatchObject({ warmUpSeconds: 0, steadyP99Milliseconds: 400 });
    expect(summarizeStudyLoad(runOf(samples), 6_500)).toMatchObject({ steadyP99Milliseconds: 40, steadyLoadP99Milliseconds: Number.NaN });
  });
});

describe("given a load run whose CPU time was measured", () => {
  const samples = [sample("load", 0, 10), sample("rate", 10, 5), sample("rate", 20, 5), sample("rate", 30, 500, 503)];

  it("should give each process's CPU time a request, failed requests included, and the cores they kept busy", () => {
    const summary = summarizeStudyLoad({ ...runOf(samples), cpuSeconds: { server: 0.002, postgres: 0.001, learners: 0.0004 } });
    expect(summary).toMatchObject({ serverCpuMicrosecondsPerRequest: 500, postgresCpuMicrosecondsPerRequest: 250, learnersCpuMicrosecondsPerRequest: 100, coresBusy: 0 });
    expect(summarizeStudyLoad({ ...runOf(samples), seconds: 0.001, cpuSeconds: { server: 0.002, postgres: null, learners: 0.0005 } })).toMatchObject({ coresBusy: 2.5 });
  });

  it("should leave out what could not be read, and every CPU figure when nothing was measured", () => {
    const summary = summarizeStudyLoad({ ...runOf(samples), cpuSeconds: { server: null, postgres: null, learners: 0.0004 } });
    expect(summary).not.toHaveProperty("serverCpuMicrosecondsPerRequest");
    expect(summary).not.toHaveProperty("postgresCpuMicrosecondsPerRequest");
    expect(summarizeStudyLoad(runOf(samples))).not.toHaveProperty("learnersCpuMicrosecondsPerRequest");
  });
});
