// early.js: a classic script in <head>, run before the first paint, so a Chinese reader never
// sees the English prose flash (and a dark-theme reader no white page): ?lang=en|zh, else the
// browser's language, sets <html lang>; ?theme=light|dark sets <html data-theme>. web/i18n.js
// and web/theme.js take over once the modules run (same rules).
// On a page whose charts main.js mounts (<script data-charts>), it also makes window.posencPage
// with its `ready` promise, kept when main.js (an async module) runs and settled by its
// 'posenc:page-ready' event, so that whatever runs first can wait for the charts.
(function () {
  var q = new URLSearchParams(location.search), h = document.documentElement;
  var l = (q.get('lang') || (navigator.languages && navigator.languages[0]) || navigator.language || '').toLowerCase();
  h.lang = l.indexOf('zh') === 0 ? 'zh-CN' : 'en';
  var t = q.get('theme');
  if (t === 'light' || t === 'dark') h.setAttribute('data-theme', t);
  var me = document.currentScript;
  if (me && me.hasAttribute('data-charts') && !window.posencPage) {
    window.posencPage = {
      charts: new Map(),
      notes: [],
      ready: new Promise(function (resolve) {
        document.addEventListener('posenc:page-ready', function () { resolve(); }, { once: true });
      }),
    };
  }
})();
