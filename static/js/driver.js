// The driver's stop form (/r/{token}/stops/{id}): a signature drawn with the finger (pointer
// events, sent as PNG), a photo scaled down to at most 1600 px (JPEG) before it is sent, and
// the post sent by fetch with retries under the same key, so a weak connection never records
// twice. Without this script the plain form still posts (a photo, no signature).
(function () {
  'use strict';
  var form = document.getElementById('stop-form');
  if (!form) return;
  var MAX_SIDE = 1600;
  var RETRIES = 6;
  var status = document.getElementById('save-status');
  var message = document.getElementById('form-message');
  var save = document.getElementById('save');
  var canvas = document.getElementById('signature');
  var photo = document.getElementById('photo');
  var photoNote = document.getElementById('photo-note');
  var signed = false;
  var photoBlob = null;

  function say(text, kind) {
    status.textContent = text;
    status.className = 'status' + (kind ? ' ' + kind : '');
  }

  // What happened decides which fields show.
  function outcome() {
    var checked = form.querySelector('input[name=outcome]:checked');
    return checked ? checked.value : '';
  }
  function showFields() {
    var o = outcome();
    form.querySelectorAll('[data-when]').forEach(function (el) {
      el.hidden = o !== '' && el.getAttribute('data-when') !== o;
    });
  }
  form.querySelectorAll('input[name=outcome]').forEach(function (r) { r.addEventListener('change', showFields); });
  showFields();

  // The signature pad.
  if (canvas && canvas.getContext) {
    canvas.parentNode.hidden = false;
    var nojs = document.getElementById('sig-nojs');
    if (nojs) nojs.hidden = true;
    var ctx = canvas.getContext('2d');
    ctx.lineWidth = 3;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = '#111';
    var drawing = false;
    var last = null;
    var point = function (e) {
      var r = canvas.getBoundingClientRect();
      return { x: (e.clientX - r.left) * canvas.width / r.width, y: (e.clientY - r.top) * canvas.height / r.height };
    };
    canvas.addEventListener('pointerdown', function (e) {
      e.preventDefault();
      drawing = true;
      last = point(e);
      if (canvas.setPointerCapture) canvas.setPointerCapture(e.pointerId);
      ctx.beginPath();
      ctx.arc(last.x, last.y, 1.5, 0, 2 * Math.PI);
      ctx.fillStyle = '#111';
      ctx.fill();
      signed = true;
    });
    canvas.addEventListener('pointermove', function (e) {
      if (!drawing) return;
      e.preventDefault();
      var p = point(e);
      ctx.beginPath();
      ctx.moveTo(last.x, last.y);
      ctx.lineTo(p.x, p.y);
      ctx.stroke();
      last = p;
      signed = true;
    });
    var stop = function () { drawing = false; last = null; };
    canvas.addEventListener('pointerup', stop);
    canvas.addEventListener('pointercancel', stop);
    canvas.addEventListener('pointerleave', stop);
    document.getElementById('sig-clear').addEventListener('click', function () {
      ctx.clearRect(0, 0, canvas.width, canvas.height);
      signed = false;
    });
  }

  // A photo from the camera, scaled down before it travels.
  function scaled(file) {
    if (!window.createImageBitmap) return Promise.resolve(file);
    return createImageBitmap(file).then(function (bmp) {
      var k = Math.min(1, MAX_SIDE / Math.max(bmp.width, bmp.height));
      var c = document.createElement('canvas');
      c.width = Math.round(bmp.width * k);
      c.height = Math.round(bmp.height * k);
      c.getContext('2d').drawImage(bmp, 0, 0, c.width, c.height);
      return new Promise(function (resolve) {
        c.toBlob(function (b) { resolve(b || file); }, 'image/jpeg', 0.8);
      });
    }).catch(function () { return file; });
  }
  if (photo) {
    photo.addEventListener('change', function () {
      photoBlob = null;
      var file = photo.files && photo.files[0];
      if (!file) { photoNote.hidden = true; return; }
      photoNote.hidden = false;
      photoNote.textContent = 'Preparing the photo…';
      scaled(file).then(function (b) {
        photoBlob = b;
        photoNote.textContent = 'Photo ready (' + Math.round(b.size / 1024) + ' KB).';
      });
    });
  }

  function clearErrors() {
    form.querySelectorAll('.error').forEach(function (el) { el.hidden = true; el.textContent = ''; });
    form.querySelectorAll('[aria-invalid]').forEach(function (el) { el.removeAttribute('aria-invalid'); });
    message.hidden = true;
  }
  function showErrors(body) {
    message.textContent = body.message || 'Not saved.';
    message.hidden = false;
    var errors = body.errors || {};
    Object.keys(errors).forEach(function (k) {
      var el = document.getElementById('err-' + k);
      if (el) { el.textContent = errors[k]; el.hidden = false; }
      var input = document.getElementById(k);
      if (input) input.setAttribute('aria-invalid', 'true');
    });
    message.scrollIntoView({ block: 'center' });
  }

  function signatureBlob() {
    return new Promise(function (resolve) {
      if (!signed || !canvas) return resolve(null);
      canvas.toBlob(function (b) { resolve(b); }, 'image/png');
    });
  }

  function body() {
    var data = new FormData(form);
    data.delete('photo');
    if (outcome() !== 'done') return Promise.resolve(data);
    var file = photo && photo.files && photo.files[0];
    var pending = photoBlob ? Promise.resolve(photoBlob) : file ? scaled(file) : Promise.resolve(null);
    return pending.then(function (p) {
      if (p) { data.append('photo', p, 'photo.jpg'); return data; }
      return signatureBlob().then(function (s) {
        if (s) data.append('signature', s, 'signature.png');
        return data;
      });
    });
  }

  function wait(ms) { return new Promise(function (r) { setTimeout(r, ms); }); }

  // The same key on every try: the server writes a post it already has only once.
  function send(data, attempt) {
    return fetch(form.action, { method: 'POST', body: data, headers: { 'X-Driver-Fetch': '1' }, credentials: 'omit', cache: 'no-store' })
      .then(function (res) {
        if (res.status >= 500 || res.status === 408 || res.status === 429) throw new Error('busy');
        return res;
      })
      .catch(function () {
        if (attempt >= RETRIES) return null;
        var delay = Math.min(16000, 1000 * Math.pow(2, attempt));
        say('No connection: trying again in ' + Math.round(delay / 1000) + ' s…', 'err');
        return wait(delay).then(function () { say('Sending again…'); return send(data, attempt + 1); });
      });
  }

  form.addEventListener('submit', function (e) {
    e.preventDefault();
    clearErrors();
    save.disabled = true;
    say('Saving…');
    body().then(function (data) { return send(data, 0); }).then(function (res) {
      if (!res) {
        say('Not saved: no connection. Press Save again when you have signal.', 'err');
        save.disabled = false;
        return;
      }
      if (res.status === 404) {
        say('This link does not work any more. Ask the office for the new link.', 'err');
        save.disabled = false;
        return;
      }
      return res.json().then(function (b) {
        if (res.ok && b.saved) {
          say('Saved', 'ok');
          setTimeout(function () { window.location.assign(b.next); }, 800);
          return;
        }
        showErrors(b);
        say('Not saved: see above.', 'err');
        save.disabled = false;
      });
    }).catch(function () {
      say('Not saved. Press Save again.', 'err');
      save.disabled = false;
    });
  });
})();
