import Foundation

/// The report's review panel: with JavaScript, each track row gains a tick box (untick a false
/// face: not drawn, not masked), a choice of "keep visible" or "always mask" and a person field;
/// a form splits a track at a frame or joins two tracks; "Download edits" saves the edits file
/// (`TrackEdits`'s JSON, docs/edits.md) that `facetrack render --edits` and `facetrack
/// apply-edits` take. Nothing leaves the page: the file is made in the browser. Without
/// JavaScript the panel stays hidden and the page is as before.
enum ReviewPanel {
    /// The panel, hidden until the script shows it; `tracksFile` is named in the edits file.
    static func html(tracksFile: String?) -> String {
        let name = HTMLText.escape(tracksFile.map { ($0 as NSString).lastPathComponent } ?? "")
        var h = "<section id=\"review\" hidden data-tracks-file=\"\(name)\">\n<h2>Review</h2>\n"
        h += "<p class=\"legend\">Untick a false face, mark a track <b>keep visible</b> or <b>always mask</b>, name its person, "
        h += "split or join tracks; then download the edits and apply them: "
        h += "<code>facetrack render VIDEO --tracks \(name.isEmpty ? "TRACKS.csv" : name) --edits EDITS.json -o OUT.mp4</code> "
        h += "or <code>facetrack apply-edits</code>.</p>\n<p class=\"review-forms\">"
        h += "Split track <select id=\"split-track\"></select> at frame <input id=\"split-frame\" type=\"number\" min=\"0\" step=\"1\">"
        h += " <button type=\"button\" id=\"split\">Split</button> &nbsp; "
        h += "Join track <select id=\"join-track\"></select> into <select id=\"join-into\"></select>"
        h += " <button type=\"button\" id=\"join\">Join</button> &nbsp; "
        h += "<button type=\"button\" id=\"download-edits\">Download edits</button> <span id=\"review-note\"></span></p>\n"
        h += "<pre id=\"edits-json\"></pre>\n</section>\n"
        return h
    }

    static let css = """
    #review pre{background:#f6f8f9;border:1px solid var(--line);border-radius:4px;padding:6px;max-height:220px;overflow:auto;font-size:12px}
    td.review{white-space:nowrap}td.review select,td.review input{font:inherit;font-size:12px;margin-left:4px}
    td.review input.person{width:9em}tr.dropped td{opacity:.45;text-decoration:line-through}tr.joined td{opacity:.45}
    #review-note{color:#b3261e}@media print{#review,td.review,th.review{display:none}}
    """

    /// The review script: builds the edits from the page's controls, in the order `TrackEdits`
    /// applies them (splits and joins as made, then each remaining track's choices).
    static let script = """
    (function(){var d=document,sec=d.getElementById('review');if(!sec)return;sec.hidden=false;
    var body=d.querySelector('#tracks tbody'),head=d.querySelector('#tracks thead tr'),pre=d.getElementById('edits-json'),
    note=d.getElementById('review-note'),ops=[],tracks={},order=[],next=1;
    var th=d.createElement('th');th.className='l review';th.textContent='review';head.appendChild(th);
    function el(tag,props){var e=d.createElement(tag);for(var k in props)e[k]=props[k];return e}
    function add(row,id,first,last,person){var t={id:id,row:row,first:first,last:last,person:person,orig:person,show:true,mask:'',live:true};
    tracks[id]=t;order.push(id);next=Math.max(next,id+1);
    var td=el('td',{className:'l review'}),cb=el('input',{type:'checkbox',checked:true,className:'show',title:'draw and mask this track; untick a false face'}),
    sel=el('select',{className:'mask'}),name=el('input',{type:'text',className:'person',placeholder:'person',value:person});
    [['','as rendered'],['keep','keep visible'],['mask','always mask']].forEach(function(o){sel.appendChild(el('option',{value:o[0],textContent:o[1]}))});
    cb.addEventListener('change',function(){t.show=cb.checked;row.classList.toggle('dropped',!cb.checked);update()});
    sel.addEventListener('change',function(){t.mask=sel.value;update()});
    name.addEventListener('input',function(){t.person=name.value.trim();update()});
    td.appendChild(cb);td.appendChild(sel);td.appendChild(name);row.appendChild(td);t.controls=[cb,sel,name]}
    [].slice.call(body.querySelectorAll('tr.track')).forEach(function(r){add(r,+r.getAttribute('data-track'),+r.getAttribute('data-first'),
    +r.getAttribute('data-last'),r.getAttribute('data-person')||'')});
    function live(){return order.filter(function(id){return tracks[id].live})}
    function fill(select){var v=select.value;select.innerHTML='';live().forEach(function(id){select.appendChild(el('option',{value:id,textContent:id}))});
    if(v&&tracks[v]&&tracks[v].live)select.value=v}
    function edits(){var list=ops.slice();live().forEach(function(id){var t=tracks[id];if(!t.show){list.push({op:'drop',track:id});return}
    if(t.mask)list.push({op:t.mask,track:id});if(t.person!==t.orig)list.push({op:'rename',track:id,person:t.person})});
    var file={format:'facetrack-edits',version:1},name=sec.getAttribute('data-tracks-file');if(name)file.tracks=name;file.edits=list;return file}
    function update(){['split-track','join-track','join-into'].forEach(function(i){fill(d.getElementById(i))});
    pre.textContent=JSON.stringify(edits(),null,1)}
    function say(text){note.textContent=text}
    d.getElementById('split').addEventListener('click',function(){var id=+d.getElementById('split-track').value,f=Math.round(+d.getElementById('split-frame').value),t=tracks[id];
    if(!t||!(f>t.first&&f<=t.last)){say('track '+id+' runs from frame '+(t?t.first:'?')+' to '+(t?t.last:'?')+': pick a frame after its first');return}
    var n=next,row=el('tr',{className:'track'});row.setAttribute('data-track',n);
    row.innerHTML='<td class="l"><span class="noimg">split</span></td><td class="l">'+n+'</td>';
    var info=el('td',{colSpan:Math.max(1,t.row.cells.length-3),textContent:'split from track '+id+' at frame '+f+' (frames '+f+' to '+t.last+')'});
    row.appendChild(info);t.row.parentNode.insertBefore(row,t.row.nextSibling);
    ops.push({op:'split',track:id,frame:f,new_track:n});add(row,n,f,t.last,t.orig);tracks[n].person=t.person;tracks[n].controls[2].value=t.person;
    t.last=f-1;say('');update()});
    d.getElementById('join').addEventListener('click',function(){var a=tracks[+d.getElementById('join-track').value],b=tracks[+d.getElementById('join-into').value];
    if(!a||!b||a===b){say('pick two different tracks');return}
    if(a.first<=b.last&&b.first<=a.last){say('tracks '+a.id+' and '+b.id+' overlap in time: only tracks that never meet can join');return}
    ops.push({op:'join',track:a.id,into:b.id});a.live=false;a.row.classList.add('joined');a.controls.forEach(function(c){c.disabled=true});
    a.row.lastChild.appendChild(el('span',{textContent:' joined into '+b.id}));b.first=Math.min(a.first,b.first);b.last=Math.max(a.last,b.last);say('');update()});
    d.getElementById('download-edits').addEventListener('click',function(){var text=JSON.stringify(edits(),null,1)+'\\n',
    name=(sec.getAttribute('data-tracks-file')||'tracks').replace(/\\.[^.]*$/,'')+'-edits.json',
    a=el('a',{href:URL.createObjectURL(new Blob([text],{type:'application/json'})),download:name});d.body.appendChild(a);a.click();a.remove()});
    update()})();
    """
}
