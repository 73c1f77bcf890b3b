// An object with no Object.prototype behind it (so `__proto__`, `constructor` and friends are
// plain keys), built by a constructor so V8 keeps it in fast mode: `Object.create(null)` starts
// in dictionary mode, which costs every request that fills one (reply headers, empty queries).
export const NullObject = function NullObject(this: object) {} as unknown as new <Value = unknown>() => Record<string, Value>;
NullObject.prototype = Object.create(null);
