#!/usr/bin/env bash
# CI's cluster test (issue 51): a single-node Slurm from the distribution's packages runs a job
# array of four shards of `simulate rumble`; the folder a plain run then seals must hold the bytes
# of a one-machine run. Where Slurm cannot be installed or started, the step says so and passes.
#
#   .ci/slurm.sh SKIRMISH_BINARY WORK_DIR
#
# Configured as ../shared/slurm/NOTES.md records what worked on these machines: munge with a
# fresh key, slurmctld and slurmd as root, no cgroup.conf, one partition holding this node.
set -euo pipefail
bin="$(realpath "$1")"
work="$(realpath -m "$2")"
mkdir -p "$work"

skip() { echo "slurm: skipped: $*" >&2; exit 0; }

if ! command -v sbatch > /dev/null || ! command -v munged > /dev/null; then
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge; } \
    > "$work/apt.log" 2>&1 || skip "the packages slurm-wlm and munge cannot be installed here (see $work/apt.log)"
fi
id munge > /dev/null 2>&1 || skip "no munge user after installing munge"

pids=()
stop() {
  for p in "${pids[@]:-}"; do [ -n "$p" ] && kill "$p" 2> /dev/null || true; done
  pkill -x slurmd 2> /dev/null || true
  pkill -x slurmctld 2> /dev/null || true
  pkill -x munged 2> /dev/null || true
}
trap stop EXIT

# munge: a fresh key, its folders owned by munge, the daemon run as munge.
mkdir -p /etc/munge /run/munge /var/lib/munge /var/log/munge
chmod 700 /etc/munge
head -c 1024 /dev/urandom > /etc/munge/munge.key
chown -R munge: /etc/munge /run/munge /var/lib/munge /var/log/munge
chmod 400 /etc/munge/munge.key
pkill -x munged 2> /dev/null || true
runuser -u munge -- /usr/sbin/munged --force || skip "munged does not start"
munge -n | unmunge > /dev/null || skip "munge does not round-trip a credential"

# Slurm: this node only.
host="$(hostname)"
cpus="$(nproc)"
mem_mb=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512 ))
conf_dir=/etc/slurm
mkdir -p "$conf_dir" /var/spool/slurmctld /var/spool/slurmd /var/log/slurm
rm -f "$conf_dir/cgroup.conf"
cat > "$conf_dir/slurm.conf" <<EOF
ClusterName=skirmish-ci
SlurmctldHost=$host
SlurmUser=root
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
NodeName=$host CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=ci Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
pkill -x slurmd 2> /dev/null || true
pkill -x slurmctld 2> /dev/null || true
slurmctld || skip "slurmctld does not start (see /var/log/slurm/slurmctld.log)"
slurmd || skip "slurmd does not start (see /var/log/slurm/slurmd.log)"
for _ in $(seq 60); do
  sinfo -h -o '%T' 2> /dev/null | grep -qE 'idle|mixed' && break
  sleep 1
done
sinfo -h -o '%T' | grep -qE 'idle|mixed' || skip "the node never became idle: $(sinfo 2>&1 | tail -1)"

# The job array: four tasks, each picking its shard from SLURM_ARRAY_TASK_ID / _COUNT.
args=(simulate rumble --matches 200000 --chunk-size 10000 --seed 9 --quiet)
cat > "$work/array.sh" <<EOF
#!/usr/bin/env bash
#SBATCH --array=0-3
#SBATCH --cpus-per-task=1
#SBATCH --output=$work/task-%a.log
exec "$bin" ${args[*]} --threads 1 --out "$work/sharded"
EOF
rm -rf "$work/sharded" "$work/one"
timeout 600 sbatch --wait "$work/array.sh" > "$work/sbatch.log" 2>&1 || {
  cat "$work/sbatch.log" "$work"/task-*.log >&2 || true
  echo "slurm: the job array failed" >&2
  exit 1
}
shards=$(ls "$work/sharded"/manifest-shard-*-of-4.json 2> /dev/null | wc -l)
[ "$shards" -eq 4 ] || { echo "slurm: $shards of 4 shard manifests written" >&2; exit 1; }

# Sealed by one plain run (it plays nothing), then compared with a one-machine run.
"$bin" "${args[@]}" --out "$work/sharded" | grep -q "0 parts written now" \
  || { echo "slurm: the sealing run played parts the array should have" >&2; exit 1; }
"$bin" "${args[@]}" --threads 2 --out "$work/one" > /dev/null
digest() { (cd "$1" && find . -type f ! -name '.*' -print0 | sort -z | xargs -0 sha256sum); }
if ! diff <(digest "$work/sharded") <(digest "$work/one") > "$work/diff.txt"; then
  cat "$work/diff.txt" >&2
  echo "slurm: the array's folder differs from a one-machine run" >&2
  exit 1
fi
echo "slurm: a 4-task job array of simulate rumble sealed to the bytes of a one-machine run ($(digest "$work/one" | wc -l) files)"
