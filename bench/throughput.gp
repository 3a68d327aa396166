# Draws the throughput plot of a bench/run from the data it wrote; bench/run calls it as
#   gnuplot -e "data='.../throughput.dat'; png='.../throughput.png'; series=N; cores=C" bench/throughput.gp
# A line per server through the median of its runs, a bar from the slowest to the fastest run.
set terminal pngcairo size 1000,840 font ",10" noenhanced
set output png
set multiplot layout 2,1
set logscale x 2
set xlabel "connections"
set ylabel "requests/s"
set yrange [0:*]
set key outside right top
set grid ytics
set title sprintf("Creates: POST /plants (%d cores, wrk on the same machine)", cores)
plot for [i=0:series-1] data index i using 1:3:2:4 with yerrorlines title columnheader(1)
set title "Deletes: DELETE /plants/{id}"
plot for [i=series:2*series-1] data index i using 1:3:2:4 with yerrorlines title columnheader(1)
unset multiplot
