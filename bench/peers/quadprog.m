## Time Octave's quadprog (package optim, back end __qp__) on the SKL
## instances of BenchmarkSKL.
##
## Run it with `source`, from a directory that does not hold this file (the
## file's name would otherwise shadow optim's quadprog):
##
##   cd DIR && OPENBLAS_NUM_THREADS=1 PEERS_THREADS=1 PEERS_OUT=results.jsonl \
##     octave --no-gui -q --eval "source('/path/to/bench/peers/quadprog.m')"
##
## DIR holds skl_dD.json written by `go run ./bench/peers/gen`. Environment:
##   PEERS_D        comma-separated sizes d (default 10,20,50,100,200)
##   PEERS_OUT      JSON-lines file the rows are appended to (required)
##   PEERS_THREADS  thread count to record (the BLAS reads OPENBLAS_NUM_THREADS)
##   PEERS_BUDGET   seconds per instance after which no more repeats start
##                  (default 60); at least 3 runs are made and a run is never
##                  interrupted, so d = 200 (about 25 s a run) takes ~75 s
##   PEERS_MAXITER  comma-separated MaxIter values to try (default "200", the
##                  quadprog default)
##
## The timer (tic/toc) covers the quadprog call only; it includes quadprog's
## own phase 1 (it starts from x0 = 0, which violates a'mu = 1, and searches a
## feasible point first). Up to 7 repeats, median and minimum reported.
## KKT residuals follow peerlib.py (ukm's qp.Residuals): with quadprog's
## convention H x + f + A' l.ineqlin + Aeq' l.eqlin - l.lower + l.upper = 0 and
## A = -Ain, our multipliers are eq = -l.eqlin, ineq = l.ineqlin,
## lower = l.lower.

1;

function k = kkt_res (H, c, Aeq, beq, Ain, bin, lo, x, eq, ineq, lower)
  hx = H * x;
  r = c + hx;
  sc = max (abs (c), abs (hx));
  primal = 0; compl = 0; maxmult = 0; dual = 0;
  for i = 1:rows (Aeq)
    row = Aeq(i, :)';
    ax = row' * x;
    r = r - row * eq(i);
    sc = max (sc, abs (row * eq(i)));
    primal = max (primal, abs (ax - beq(i)) / (1 + max (abs (beq(i)), abs (ax))));
  endfor
  for i = 1:rows (Ain)
    row = Ain(i, :)';
    ax = row' * x;
    lam = ineq(i);
    r = r - row * lam;
    sc = max (sc, abs (row * lam));
    rs = ax - bin(i);
    primal = max (primal, max (0, -rs) / (1 + max (abs (bin(i)), abs (ax))));
    maxmult = max (maxmult, abs (lam));
    compl = max (compl, abs (lam * rs) / ((1 + abs (lam)) * (1 + abs (ax) + abs (bin(i)))));
    dual = max (dual, -lam);
  endfor
  for j = 1:numel (x)
    lam = lower(j);
    r(j) -= lam;
    sc(j) = max (sc(j), abs (lam));
    maxmult = max (maxmult, abs (lam));
    slack = x(j) - lo(j);
    primal = max (primal, max (0, -slack) / (1 + abs (lo(j))));
    compl = max (compl, abs (lam * slack) / ((1 + abs (lam)) * (1 + abs (x(j)) + abs (lo(j)))));
    dual = max (dual, -lam);
  endfor
  k = struct ("stationarity", max (abs (r) ./ (1 + sc)), "primal_feas", primal,
              "dual_feas", max (0, dual) / (1 + maxmult) + 0, "complementarity", compl);
endfunction

## json_line encodes a flat struct of strings and real scalars as one JSON
## object; numbers are written with %.17g (jsonencode rounds to 15 decimal
## places, which turns residuals below 1e-15 into 0).
function s = json_line (st)
  f = fieldnames (st);
  parts = cell (1, numel (f));
  for i = 1:numel (f)
    v = st.(f{i});
    if (ischar (v))
      val = ["\"" strrep(strrep(v, "\\", "\\\\"), "\"", "\\\"") "\""];
    elseif (isnan (v))
      val = "NaN";
    elseif (isinf (v))
      val = ifelse_str (v > 0, "Infinity", "-Infinity");
    else
      val = sprintf ("%.17g", v);
    endif
    parts{i} = sprintf ("\"%s\": %s", f{i}, val);
  endfor
  s = ["{" strjoin(parts, ", ") "}"];
endfunction

function s = ifelse_str (c, a, b)
  if (c)
    s = a;
  else
    s = b;
  endif
endfunction

function v = envnum (name, def)
  s = getenv (name);
  if (isempty (s))
    v = def;
  else
    v = str2double (strsplit (s, ","));
  endif
endfunction

pkg load optim
where = which ("quadprog");
if (isempty (strfind (where, "optim")))
  error ("quadprog resolves to %s, not to package optim: run from another directory", where);
endif

out = getenv ("PEERS_OUT");
if (isempty (out))
  error ("set PEERS_OUT");
endif
ds = envnum ("PEERS_D", [10 20 50 100 200]);
threads = envnum ("PEERS_THREADS", 1);
budget = envnum ("PEERS_BUDGET", 60);
maxiters = envnum ("PEERS_MAXITER", 200);
repeats = 7;

for d = ds
  inst = jsondecode (fileread (sprintf ("skl_d%d.json", d)));
  H = reshape (inst.P, d, d)';   # row-major in the file
  H = (H + H') / 2;
  c = inst.q(:);
  Aeq = inst.a(:)';
  beq = inst.b;
  C = inst.C;
  Ain = zeros (d - 1, d);
  for i = 1:d-1
    Ain(i, i) = 1;
    Ain(i, i + 1) = -C;
  endfor
  bin = zeros (d - 1, 1);
  lo = zeros (d, 1);
  for mi = maxiters
    opts = optimset ("MaxIter", mi);
    times = [];
    spent = 0;
    while (numel (times) < repeats)
      t0 = tic ();
      [x, fval, flag, output, lambda] = quadprog (H, c, -Ain, -bin, Aeq, beq, lo, [], [], opts);
      dt = toc (t0);
      times(end + 1) = dt;
      spent += dt;
      if (numel (times) >= 3 && spent > budget)
        break;
      endif
    endwhile
    if (isempty (lambda.eqlin))
      ## quadprog returns multipliers only on success (exitflag 1)
      k = struct ("stationarity", NaN, "primal_feas", NaN, "dual_feas", NaN, "complementarity", NaN);
      # primal feasibility is still measurable
      kp = kkt_res (H, c, Aeq, beq, Ain, bin, lo, x, 0, zeros (d - 1, 1), zeros (d, 1));
      k.primal_feas = kp.primal_feas;
    else
      k = kkt_res (H, c, Aeq, beq, Ain, bin, lo, x, -lambda.eqlin, lambda.ineqlin, lambda.lower);
    endif
    obj = 0.5 * x' * H * x + c' * x;
    row = struct ("family", "skl", "peer", sprintf ("octave quadprog (MaxIter %d)", mi), "d", d,
                  "threads", threads, "octave", OCTAVE_VERSION, "exitflag", flag,
                  "iterations", output.iterations, "obj", obj, "ref_obj", inst.ref.obj,
                  "obj_gap", (obj - inst.ref.obj) / abs (inst.ref.obj),
                  "stationarity", k.stationarity, "primal_feas", k.primal_feas,
                  "dual_feas", k.dual_feas, "complementarity", k.complementarity,
                  "kkt_max", max ([k.stationarity, k.primal_feas, k.dual_feas, k.complementarity]),
                  "repeats", numel (times), "t_min", min (times), "t_median", median (times));
    line = json_line (row);
    fid = fopen (out, "a");
    fprintf (fid, "%s\n", line);
    fclose (fid);
    fprintf (stderr, "%s\n", line);
  endfor
endfor
