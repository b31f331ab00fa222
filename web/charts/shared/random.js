// random.js: standard normal numbers for the charts that draw random vectors. Apart from
// common.js: a chart that imports it calls the API's tables (pe.randomNormal), which the light
// embed loads only for such charts (web/tools/bundle.js reads the calls from a chart's modules).

/**
 * A cache of pe.randomNormal(n, seed) for one seed at a time: the first n numbers of a longer
 * draw are the draw of n (the generator runs in order), so asking for fewer reuses it and only
 * a new seed or a larger n draws again. randomNormal costs about 30 ns a number.
 */
export function normalPool(pe) {
  let seed = -1, pool = null;
  return (n, s) => {
    if (s !== seed || pool.length < n) (pool = pe.randomNormal(n, s)), (seed = s);
    return pool.subarray(0, n);
  };
}
