// @vitest-environment node
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createToastStore, DEFAULT_TOAST_DURATION_MILLISECONDS } from "./toast-store";

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe("given the default toast duration", () => {
  it("should be 300 milliseconds", () => {
    expect(DEFAULT_TOAST_DURATION_MILLISECONDS).toBe(300);
  });
});

describe("given a store on the global clock with one toast shown", () => {
  it("should keep the toast for 299 ms and remove it at 300 ms", () => {
    const toastStore = createToastStore({ setTimeout, clearTimeout });
    toastStore.showToast({ message: "Painting saved", tone: "success" });
    expect(toastStore.getToasts()).toEqual([
      { id: "toast-1", message: "Painting saved", tone: "success", durationMilliseconds: 300 },
    ]);
    vi.advanceTimersByTime(299);
    expect(toastStore.getToasts()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(toastStore.getToasts()).toEqual([]);
  });

  it("should notify subscribers when the toast appears and when it expires", () => {
    const toastStore = createToastStore();
    const listener = vi.fn();
    toastStore.subscribe(listener);
    toastStore.showToast({ message: "Painting saved" });
    expect(listener).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(DEFAULT_TOAST_DURATION_MILLISECONDS);
    expect(listener).toHaveBeenCalledTimes(2);
  });
});

describe("given several toasts with different durations", () => {
  it("should expire each one after its own duration, oldest first in the list", () => {
    const toastStore = createToastStore();
    toastStore.showToast({ message: "first" });
    vi.advanceTimersByTime(100);
    toastStore.showToast({ message: "second", durationMilliseconds: 1000 });
    toastStore.showToast({ message: "sticky", durationMilliseconds: Number.POSITIVE_INFINITY });
    expect(toastStore.getToasts().map((toast) => toast.message)).toEqual(["first", "second", "sticky"]);
    vi.advanceTimersByTime(200);
    expect(toastStore.getToasts().map((toast) => toast.message)).toEqual(["second", "sticky"]);
    vi.advanceTimersByTime(800);
    expect(toastStore.getToasts().map((toast) => toast.message)).toEqual(["sticky"]);
    vi.advanceTimersByTime(60_000);
    expect(toastStore.getToasts().map((toast) => toast.message)).toEqual(["sticky"]);
  });
});

describe("given a toast dismissed before it expires", () => {
  it("should remove it at once and cancel its timer", () => {
    const clock = { setTimeout: vi.fn(() => 42), clearTimeout: vi.fn() };
    const toastStore = createToastStore(clock);
    const toastId = toastStore.showToast({ message: "Painting saved" });
    expect(clock.setTimeout).toHaveBeenCalledWith(expect.any(Function), 300);
    toastStore.dismissToast(toastId);
    expect(toastStore.getToasts()).toEqual([]);
    expect(clock.clearTimeout).toHaveBeenCalledWith(42);
  });

  it("should not notify when dismissing an unknown id", () => {
    const toastStore = createToastStore();
    const listener = vi.fn();
    toastStore.subscribe(listener);
    toastStore.dismissToast("toast-404");
    expect(listener).not.toHaveBeenCalled();
  });
});

describe("given dismissAllToasts and an unsubscribed listener", () => {
  it("should clear every toast and stop notifying the removed listener", () => {
    const toastStore = createToastStore();
    const listener = vi.fn();
    const unsubscribe = toastStore.subscribe(listener);
    toastStore.showToast({ message: "a" });
    toastStore.showToast({ message: "b" });
    toastStore.dismissAllToasts();
    expect(toastStore.getToasts()).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
    unsubscribe();
    toastStore.showToast({ message: "c" });
    expect(listener).toHaveBeenCalledTimes(3);
  });
});
