/// The report's inline style sheet and its optional script.
enum ReportStyle {
    /// Screen and print (A4) rules. System fonts only: the page loads nothing.
    static let css = """
    :root{--fg:#1d232a;--muted:#5b6670;--line:#d5dbe0;--det:#2a6fdb;--pred:#f0a030;--bg:#fff}
    *{box-sizing:border-box}
    body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:var(--fg);background:var(--bg);margin:0 auto;max-width:1060px;padding:16px 20px}
    h1{font-size:22px;margin:0 0 8px}h2{font-size:17px;margin:22px 0 8px;border-bottom:1px solid var(--line);padding-bottom:3px}
    dl.facts{display:grid;grid-template-columns:max-content 1fr max-content 1fr;gap:2px 14px;margin:0}
    dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;overflow-wrap:anywhere}
    .scroll{overflow-x:auto;border:1px solid var(--line);border-radius:4px}
    svg text{font:11px system-ui,"DejaVu Sans",sans-serif;fill:var(--fg);user-select:text;-webkit-user-select:text}
    svg .tick{fill:var(--muted)}svg .person{font-weight:600}svg .caption{font-size:12px}
    svg .grid{stroke:#eef1f3}svg .axis{stroke:#98a2ab}
    svg rect.detected{fill:var(--det)}svg rect.predicted{fill:var(--pred)}svg rect.bar{fill:#5c8fd6}
    svg .area{fill:#b9cdee;stroke:#2a6fdb;stroke-width:1}
    svg .row:hover text,svg .row.hot text{font-weight:700}svg rect:hover{opacity:.7}
    svg.timeline{display:block;width:100%;height:auto}
    .legend{color:var(--muted);font-size:12px;margin:4px 0}.legend i{display:inline-block;width:12px;height:10px;margin:0 4px 0 10px;vertical-align:-1px}
    table{border-collapse:collapse;width:100%}th,td{padding:3px 8px;border-bottom:1px solid var(--line);text-align:right;vertical-align:middle}
    th{color:var(--muted);font-weight:600;background:#f6f8f9}td.l,th.l{text-align:left}
    tr.hot td{background:#eef4fd}
    img.thumb{width:64px;height:64px;border-radius:4px;display:block}
    .noimg{display:inline-block;width:64px;height:64px;border-radius:4px;background:#eef1f3;color:var(--muted);font-size:11px;line-height:64px;text-align:center}
    .plots{display:flex;flex-wrap:wrap;gap:12px}.plots svg{border:1px solid var(--line);border-radius:4px;max-width:100%;height:auto}
    .zoom{display:none}.zoom:target{display:flex;position:fixed;inset:0;background:rgba(20,24,28,.82);align-items:center;justify-content:center;z-index:9}
    .zoom figure{background:#fff;padding:10px;border-radius:6px;margin:0}.zoom img{width:256px;height:256px;display:block;image-rendering:auto}
    .zoom figcaption{font-size:13px;margin-top:6px}
    .controls{float:right;font-size:12px}.controls button{font:inherit;margin-left:4px}
    footer{color:var(--muted);font-size:12px;margin-top:24px}
    @page{size:A4;margin:12mm}
    @media print{body{max-width:none;padding:0;font-size:11px}.controls,.zoom{display:none!important}
    .scroll{overflow:visible;border:0}svg.timeline{width:100%!important}section{break-inside:auto}tr,svg.plot{break-inside:avoid}
    .plots svg{width:31%}a{color:inherit;text-decoration:none}}
    """

    /// Hover (a track's bar and row light up together) and timeline zoom; the page is complete without it.
    static let script = """
    (function(){var d=document;function hot(id,on){d.querySelectorAll('[data-track="'+id+'"]').forEach(function(e){e.classList.toggle('hot',on)})}
    d.querySelectorAll('[data-track]').forEach(function(e){var id=e.getAttribute('data-track');
    e.addEventListener('mouseenter',function(){hot(id,true)});e.addEventListener('mouseleave',function(){hot(id,false)})});
    var t=d.querySelector('svg.timeline'),c=d.querySelector('.controls'),z=1;if(!t||!c)return;c.hidden=false;
    c.addEventListener('click',function(ev){var b=ev.target.getAttribute('data-zoom');if(!b)return;z=b==='in'?Math.min(z*2,64):b==='out'?Math.max(z/2,1):1;t.style.width=(100*z)+'%'})})();
    """
}
