#!/usr/bin/env bash
# A private CUPS for the printing tests (issue 33): Debian's cupsd on loopback with its own
# config, spool and port (never the system's :631), one cups-pdf queue "TyreDeskPDF" whose
# PDFs land in a known folder, and "TyreDeskRefusing", which does not accept jobs. Prints the two variables the tests read:
#   TYREDESK_TEST_IPP_URL=ipp://127.0.0.1:<port>/printers/TyreDeskPDF
#   TYREDESK_TEST_IPP_OUT=<folder of the printed PDFs>
#   TYREDESK_TEST_IPP_SPOOL=<CUPS's spool: d<job-id, 5 digits>-001 is each job's document as
#     received; cups-pdf's PDFs are the document turned to PostScript and back, whose text
#     pdftotext cannot read for CID fonts such as the embedded Liberation Sans>
# Usage: eval "$(.ci/cups.sh start)"  /  .ci/cups.sh stop. Runs as root.
set -euo pipefail
dir=${TYREDESK_CUPS_DIR:-/tmp/tyredesk-cups}
port=${TYREDESK_CUPS_PORT:-56331}
case "${1:-start}" in
stop)
  [ -f "$dir/cupsd.pid" ] && kill "$(cat "$dir/cupsd.pid")" 2>/dev/null || true
  exit 0 ;;
esac
if [ -f "$dir/cupsd.pid" ] && kill -0 "$(cat "$dir/cupsd.pid")" 2>/dev/null; then
  kill "$(cat "$dir/cupsd.pid")"; sleep 1
fi
rm -rf "$dir"
mkdir -p "$dir"/{root/ppd,spool/tmp,cache,state/certs,log,out}
chmod 1777 "$dir/out" "$dir/spool/tmp"
chgrp lp "$dir/spool" "$dir/cache" 2>/dev/null || true
chmod 0710 "$dir/spool"
cat > "$dir/root/cupsd.conf" <<CONF
Listen 127.0.0.1:$port
ServerName 127.0.0.1
LogLevel warn
PreserveJobHistory Yes
PreserveJobFiles Yes
MaxJobs 0
Browsing No
DefaultAuthType None
WebInterface No
<Location />
  Order allow,deny
  Allow from 127.0.0.1
</Location>
<Location /admin>
  Order allow,deny
  Allow from 127.0.0.1
</Location>
<Policy default>
  JobPrivateAccess all
  JobPrivateValues none
  SubscriptionPrivateAccess all
  SubscriptionPrivateValues none
  <Limit All>
    Order deny,allow
  </Limit>
</Policy>
CONF
cat > "$dir/root/cups-files.conf" <<CONF
SystemGroup root lpadmin
User lp
Group lp
ServerRoot $dir/root
RequestRoot $dir/spool
TempDir $dir/spool/tmp
CacheDir $dir/cache
StateDir $dir/state
ServerBin /usr/lib/cups
DataDir /usr/share/cups
DocumentRoot /usr/share/cups/doc-root
AccessLog $dir/log/access_log
ErrorLog $dir/log/error_log
PageLog $dir/log/page_log
FileDevice No
CONF
# cups-pdf reads /etc/cups/cups-pdf-<name>.conf for a queue whose URI is cups-pdf:/<name>.
cat > /etc/cups/cups-pdf-TyreDeskPDF.conf <<CONF
Out $dir/out
AnonDirName $dir/out
AnonUMask 0000
UserUMask 0000
Label 2
TitlePref 1
CONF
# -f: in the foreground of a background job, so its pid is known and it ends with the stop.
(setsid /usr/sbin/cupsd -f -c "$dir/root/cupsd.conf" -s "$dir/root/cups-files.conf" </dev/null >"$dir/log/stdout" 2>&1 & echo $! >"$dir/cupsd.pid")
for _ in $(seq 1 150); do
  lpstat -h "127.0.0.1:$port" -r >/dev/null 2>&1 && break
  sleep 0.1
done
ppd=$(ls /usr/share/ppd/cups-pdf/CUPS-PDF_opt.ppd /usr/share/ppd/cups-pdf/CUPS-PDF_noopt.ppd 2>/dev/null | head -n 1)
lpadmin -h "127.0.0.1:$port" -p TyreDeskPDF -E -v cups-pdf:/TyreDeskPDF -P "$ppd" -o printer-error-policy=abort-job >&2
# A second queue that refuses jobs (not accepting): the retry tests' printer that says no.
lpadmin -h "127.0.0.1:$port" -p TyreDeskRefusing -E -v cups-pdf:/TyreDeskPDF -P "$ppd" >&2
cupsreject -h "127.0.0.1:$port" -r "closed for the test" TyreDeskRefusing
echo "export TYREDESK_TEST_IPP_URL=ipp://127.0.0.1:$port/printers/TyreDeskPDF"
echo "export TYREDESK_TEST_IPP_OUT=$dir/out"
echo "export TYREDESK_TEST_IPP_SPOOL=$dir/spool"
