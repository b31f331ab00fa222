// early.js: a classic script in <head>, run before the first paint, so a Chinese reader never
// sees the English prose flash (and a dark-theme reader no white page): ?lang=en|zh, else the
// browser's language, sets <html lang>; ?theme=light|dark sets <html data-theme>. web/i18n.js
// and web/theme.js take over once the modules run (same rules).
(function () {
  var q = new URLSearchParams(location.search), h = document.documentElement;
  var l = (q.get('lang') || (navigator.languages && navigator.languages[0]) || navigator.language || '').toLowerCase();
  h.lang = l.indexOf('zh') === 0 ? 'zh-CN' : 'en';
  var t = q.get('theme');
  if (t === 'light' || t === 'dark') h.setAttribute('data-theme', t);
})();
